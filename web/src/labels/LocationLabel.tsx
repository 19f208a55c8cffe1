import { Card, CloseButton, Group, Stack, Text } from '@mantine/core';
import { ErrorNotice } from '../components/ErrorNotice';
import { useCodesOf } from '../data/labels';
import { CodeText, PrintLabels } from './PrintLabels';

type Location = { id: string; name: string; pathNames: string[] };

/**
 * A location's label (docs/labels.md): its code, its own label to print, and the labels of everything stored there
 * and below. What a location's QR code opens, on the location tree.
 */
export function LocationLabel({ location, onClose }: { location: Location; onClose: () => void }) {
  const codes = useCodesOf({ location_id: location.id });
  const code = codes.data?.[0]?.code;
  return (
    <Card withBorder padding="sm" data-testid="location-label" component="section" aria-label={`Label of ${location.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="start">
          <div>
            <Text fw={600}>{location.name}</Text>
            <Text size="sm" c="dimmed">
              {location.pathNames.join(' / ')}
            </Text>
          </div>
          <CloseButton aria-label="Close the label" onClick={onClose} />
        </Group>
        {codes.isError && <ErrorNotice error={codes.error} />}
        {code && (
          <Text size="sm">
            Label <CodeText code={code} />
          </Text>
        )}
        <Group gap="xs">
          <PrintLabels selection={{ location_ids: [location.id] }}>Print its label</PrintLabels>
          <PrintLabels selection={{ stored_in_location_id: location.id, include_sublocations: true }}>
            Print labels of what is stored here
          </PrintLabels>
        </Group>
      </Stack>
    </Card>
  );
}
