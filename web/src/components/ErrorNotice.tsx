import { Alert, Code, Text } from '@mantine/core';
import { describeError, errorDetails } from '../api';

/**
 * A failed load or change as a sentence for the person; the request id, the error's code and the server's own words
 * wait behind "Details" (closed), for whoever helps them.
 */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const details = errorDetails(error);
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm" data-testid="error-sentence">
        {describeError(error)}
      </Text>
      {details.length > 0 && (
        <details data-testid="error-details">
          <summary style={{ cursor: 'pointer', marginTop: 4 }}>Details</summary>
          {details.map((d) => (
            <Text size="xs" key={d.label}>
              {d.label}: <Code>{d.value}</Code>
            </Text>
          ))}
        </details>
      )}
    </Alert>
  );
}
