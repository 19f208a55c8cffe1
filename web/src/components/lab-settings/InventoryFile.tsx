import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/**
 * Downloads the lab's inventory as a CSV file. A plain link, not a call of the typed client: the browser streams
 * the file to disk as the server writes it (a large lab's export is never held in the page's memory), the sign-in
 * cookie authorizes the GET (same origin, SameSite=Lax; a GET needs no CSRF token, docs/auth.md), and the answer's
 * Content-Disposition makes it a download. The address is the API's, outside /app, so no router link.
 */
export function ExportButton({ labId, variant = 'default' }: { labId: string; variant?: 'default' | 'filled' }) {
  return (
    <Button component="a" href={`/labs/${encodeURIComponent(labId)}/inventory/export`} download variant={variant}>
      Export as CSV
    </Button>
  );
}

/** The lab's settings: its inventory to and from a spreadsheet (docs/csv.md). */
export function InventoryFile({ labId, labName }: { labId: string; labName: string }) {
  return (
    <Stack gap="xs" data-testid="inventory-file">
      <Title order={3}>Inventory as a file</Title>
      <Text size="sm">
        Bring a spreadsheet of what {labName} already has into Labstock, or take its whole inventory out as a CSV file that opens in any
        spreadsheet.
      </Text>
      <Group>
        <Button component={Link} to={`/labs/${labId}/import`}>
          Import from a CSV file
        </Button>
        <ExportButton labId={labId} />
      </Group>
    </Stack>
  );
}
