import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { type AuthSession, fetchSession } from './api';

// The signed-in person, read once and kept by TanStack Query under ['session']; sign-in and sign-out replace it.

const SessionContext = createContext<AuthSession | null>(null);

export const SESSION_KEY = ['session'] as const;

export function useSessionQuery() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000, retry: false });
}

export function SessionProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The session of a signed-in page (the shell renders those only with one). */
export function useSession(): AuthSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export function useSetSession() {
  const queryClient = useQueryClient();
  return (session: AuthSession | null) => {
    // Another person (or organization) signing in on this tab starts with nothing of the one before: no counts in
    // the navigation, no lists, that were theirs. The same person's session replaced (a new name) keeps the cache.
    const before = queryClient.getQueryData<AuthSession | null>(SESSION_KEY);
    const same = before && session && before.user.id === session.user.id && before.organization.id === session.organization.id;
    // Only what no page shows now: the page that signs in (an accepted invitation) keeps its own queries.
    if (session && !same) queryClient.removeQueries({ type: 'inactive', predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
    queryClient.setQueryData(SESSION_KEY, session);
  };
}
