import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { fetchSession, LabstockError, rememberCsrfToken } from './api';
import { noteFailure, noteSuccess } from './connection';
import { router } from './routes';
import { SESSION_KEY } from './session';
import { cssVariablesResolver, theme } from './theme';

// A session that ends while the person works (it expired, was signed out elsewhere, or the person was deactivated)
// makes the next call answer 401: forgetting the session makes the shell send them to sign in and back to this page
// (web/src/components/Shell.tsx), instead of showing an error on every panel. Only while a session is held: signing
// in with a wrong password also answers 401.
function onError(err: unknown) {
  // A call that never reached the server: the shell's "Connection lost — Retry" (web/src/connection.ts).
  noteFailure(err);
  if (err instanceof LabstockError && err.status === 401 && queryClient.getQueryData(SESSION_KEY)) {
    rememberCsrfToken(undefined);
    queryClient.setQueryData(SESSION_KEY, null);
  }
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError, onSuccess: noteSuccess }),
  mutationCache: new MutationCache({ onError, onSuccess: noteSuccess }),
  defaultOptions: {
    // A 4xx will not change by asking again; a network failure or a 5xx may.
    queries: { retry: (count, err) => count < 2 && !(err instanceof LabstockError && err.status < 500), refetchOnWindowFocus: false },
  },
});

// The session is asked for while the router still loads the page's chunk, not after (bench/web-load.mjs: the first
// signed-in page waited for the chunk, then the session, then its data, one after the other).
void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000 });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider defaultColorScheme="light" theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
