import { Alert, Button, Code, CopyButton, Group, Text } from '@mantine/core';

/**
 * A webhook's signing key, shown once: right after the webhook is created or its key rotated. The pages show it
 * nowhere else, like an API token (web/src/pages/Settings.tsx), so it does not sit on screen for anyone to read.
 */
export function SigningKeyNotice({ signingKey, title, note }: { signingKey: string; title: string; note?: string }) {
  return (
    <Alert color="green" title={title} role="status" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid="signing-key" style={{ wordBreak: 'break-all' }}>
          {signingKey}
        </Code>
        <CopyButton value={signingKey}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {note && (
        <Text size="sm" mt="xs">
          {note}
        </Text>
      )}
    </Alert>
  );
}
