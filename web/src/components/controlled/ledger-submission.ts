import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSubmission } from '../../forms/submission';
import { refreshControlled } from './refresh';

/**
 * What every form of the ledger does (mark, unmark, correct): nothing is sent until what the person typed is
 * `ready`, and then once (one Idempotency-Key per submission, web/src/forms/submission.ts); afterwards every
 * controlled list is read again and the form closes. `tried` shows the fields' errors only after a first attempt.
 */
export function useLedgerForm<T>(options: { name: string; send: (key: string) => Promise<T>; ready: () => boolean; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [tried, setTried] = useState(false);
  const submission = useSubmission({
    name: options.name,
    send: (_vars, key: string) => options.send(key),
    onSuccess: async () => {
      await refreshControlled(queryClient);
      options.onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (options.ready()) submission.submit();
  };
  return { submission, submit, tried };
}
