import { type UseMutationOptions, type UseMutationResult, useMutation } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useLocation } from 'react-router';
import { LabstockError } from '../api';

// Every action a person takes happens exactly once (docs/web.md, "Exactly once"):
// - one Idempotency-Key per intended submission, made when the form opens and reused by every retry of it, so the
//   server answers a repeat with the first answer instead of doing the work again (src/server/idempotency.ts);
// - the key is kept for the browser history entry (sessionStorage under the entry's key), so going back to a form
//   and sending it again replays the first answer rather than creating a second;
// - a second submit while one is on its way is ignored (a double-click fires two before React re-renders);
// - a form that stays open for the next one (an adjustment) takes a fresh key after each success;
// - a form changed after a success has another body: the server refuses the old key for it
//   (idempotency_key_reused) and the submission is sent once more under a fresh key, as the new intention it is.

const fresh = (): string => crypto.randomUUID();

function useIntentionKey(name: string) {
  const location = useLocation();
  const storageKey = `labstock:intent:${location.key}:${name}`;
  const ref = useRef<{ storageKey: string; key: string } | null>(null);
  if (ref.current?.storageKey !== storageKey) {
    let key = sessionStorage.getItem(storageKey);
    if (!key) {
      key = fresh();
      sessionStorage.setItem(storageKey, key);
    }
    ref.current = { storageKey, key };
  }
  const renew = useCallback(() => {
    const key = fresh();
    sessionStorage.setItem(storageKey, key);
    ref.current = { storageKey, key };
  }, [storageKey]);
  return { current: () => ref.current!.key, renew };
}

export interface SubmissionOptions<TData, TVars> extends Omit<UseMutationOptions<TData, Error, TVars>, 'mutationFn'> {
  /** Names the form among others on the same page ("adjust", "add-instance"). */
  name: string;
  /** Sends the submission with this Idempotency-Key header value. */
  send: (vars: TVars, idempotencyKey: string) => Promise<TData>;
  /** The form stays open for another submission (an adjustment form): a new key after each success. */
  renewOnSuccess?: boolean;
}

/**
 * useMutation for a form that creates or changes something: sends `Idempotency-Key`, ignores a submit while one is
 * pending, and keeps the key for retries. Use `submit(vars)` instead of `mutate`.
 */
export function useSubmission<TData, TVars = void>(
  options: SubmissionOptions<TData, TVars>,
): UseMutationResult<TData, Error, TVars> & { submit: (vars: TVars) => void } {
  const { name, send, renewOnSuccess, onSuccess, ...rest } = options;
  const intent = useIntentionKey(name);
  const inFlight = useRef(false);
  const mutation = useMutation<TData, Error, TVars>({
    ...rest,
    mutationFn: async (vars) => {
      try {
        return await send(vars, intent.current());
      } catch (err) {
        if (err instanceof LabstockError && err.code === 'idempotency_key_reused') {
          intent.renew();
          return send(vars, intent.current());
        }
        throw err;
      }
    },
    onSuccess: (...args) => {
      if (renewOnSuccess) intent.renew();
      return onSuccess?.(...args);
    },
  });
  const submit = useCallback(
    (vars: TVars) => {
      if (inFlight.current) return;
      inFlight.current = true;
      mutation.mutateAsync(vars).then(
        () => {
          inFlight.current = false;
        },
        () => {
          inFlight.current = false;
        },
      );
    },
    [mutation.mutateAsync],
  );
  return { ...mutation, submit };
}

/** The header object for a typed client call: `api.POST(path, { body, headers: idempotent(key) })`. */
export const idempotent = (key: string) => ({ 'Idempotency-Key': key });
