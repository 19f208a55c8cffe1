import { Alert } from '@mantine/core';
import { describeError } from '../api';

/** A failed load or change, with the server's message and request id. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert">
      {describeError(error)}
    </Alert>
  );
}
