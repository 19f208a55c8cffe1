import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** An unknown page, and any resource this person may not see: the API answers 404 for both, and so does the app. */
export function NotFoundPage({ what = 'page' }: { what?: string }) {
  return (
    <Stack gap="xs" data-testid="not-found">
      <Title order={2}>Not found</Title>
      <Text>This {what} does not exist, or it is not yours to see.</Text>
      <Anchor component={Link} to="/inventory">
        Back to the inventory
      </Anchor>
    </Stack>
  );
}
