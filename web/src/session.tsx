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
  return (session: AuthSession | null) => queryClient.setQueryData(SESSION_KEY, session);
}
