import { Alert, Anchor, Code, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError, errorDetails } from '../api';

/**
 * A failed load or change as a sentence for the person; the request id, the error's code and the server's own words
 * wait behind "Details" (closed, and not on the page until opened), for whoever helps them.
 */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const [open, setOpen] = useState(false);
  const details = errorDetails(error);
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm" data-testid="error-sentence">
        {describeError(error)}
      </Text>
      {details.length > 0 && (
        <Anchor component="button" type="button" size="xs" aria-expanded={open} onClick={() => setOpen(!open)}>
          Details
        </Anchor>
      )}
      {open && (
        <Stack gap={2} data-testid="error-details">
          {details.map((d) => (
            <Text size="xs" key={d.label}>
              {d.label}: <Code>{d.value}</Code>
            </Text>
          ))}
        </Stack>
      )}
    </Alert>
  );
}
