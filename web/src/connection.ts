import { LabstockError } from '@labstock/client';
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

// "Connection lost — Retry" (issue 23): a call that never reached the server (the network is down, the server is
// restarting behind a proxy) is not the person's mistake and not the server's answer. Queries already ask again
// (web/src/main.tsx); once they give up, or a change fails that way, the shell shows one banner with Retry
// (web/src/components/ConnectionBanner.tsx) instead of leaving a page silently empty or a button that seems dead.

let lost = false;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
  if (lost === value) return;
  lost = value;
  for (const listener of listeners) listener();
};

/** A failure of the connection: fetch's own TypeError, or a gateway's 502, 503 or 504 in front of the server. */
export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof LabstockError) return err.status === 502 || err.status === 503 || err.status === 504;
  return err instanceof TypeError;
}

export function noteFailure(err: unknown): void {
  if (isConnectionFailure(err)) set(true);
}

/** Something reached the server: the connection is back. */
export function noteSuccess(): void {
  set(false);
}

export function useConnectionLost(): boolean {
  const offline = useSyncExternalStore(onlineManager.subscribe.bind(onlineManager), () => !onlineManager.isOnline());
  const failed = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => lost,
  );
  return offline || failed;
}

/**
 * Retry: the queries that failed, or wait paused for the network, are asked again (a change that failed is sent
 * again by the person, with the same Idempotency-Key, web/src/forms/submission.ts, so it still happens once).
 */
export async function retryConnection(queryClient: QueryClient): Promise<void> {
  set(false);
  onlineManager.setOnline(navigator.onLine);
  await queryClient.refetchQueries({ predicate: (q) => q.state.status === 'error' || q.state.fetchStatus === 'paused' });
  await queryClient.resumePausedMutations();
}
