import { Alert, Button, Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { retryConnection, useConnectionLost } from '../connection';

/** One banner for every page while the server cannot be reached (web/src/connection.ts). */
export function ConnectionBanner() {
  const lost = useConnectionLost();
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  if (!lost) return null;
  const retry = async () => {
    setRetrying(true);
    try {
      await retryConnection(queryClient);
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Alert color="orange" icon={<IconWifiOff aria-hidden />} role="alert" mb="md" data-testid="connection-lost" p="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Connection lost — Labstock could not be reached. After Retry, check that your last change was saved.
        </Text>
        <Button size="xs" color="orange" onClick={retry} loading={retrying}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
