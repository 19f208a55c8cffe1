import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { StocktakeWithLines } from '../../data/stocktake';
import { Sentences } from '../placement/Findings';
import type { PlacementCheck } from '../placement/gate';

// What applying a count put where (docs/safety.md "A stocktake records what is there"): the apply's answer carries
// `placement_findings`, never blocking. Said once after the apply, grouped by the place to look at (a control area's
// page for its limit, the place a container was found for what it is beside), in the words of the placement checks.

interface Place {
  id: string | null;
  name: string;
  lines: string[];
}

/** The findings by place: a limit by its control area; a container beside another where its count put it. */
function byPlace(view: StocktakeWithLines, check: PlacementCheck): Place[] {
  const places = new Map<string, Place>();
  const add = (id: string | null, name: string, line: string) => {
    const key = id ?? name;
    const place = places.get(key) ?? { id, name, lines: [] };
    place.lines.push(line);
    places.set(key, place);
  };
  for (const f of check.limits) add(f.control_area_id, f.control_area_name, f.message);
  for (const f of check.segregation) {
    // The counted line of the container that went there: where it was found, else where it is (the counted place).
    const line = view.lines.find((l) => l.counted && l.item_name === f.incoming_item_name && l.found_location_id);
    if (line?.found_location_id && line.found_location) add(line.found_location_id, line.found_location.name, f.message);
    else add(view.location_id, view.location?.name ?? 'the counted place', f.message);
  }
  return [...places.values()];
}

export function CountFindings({ view, check }: { view: StocktakeWithLines; check: PlacementCheck }) {
  const places = byPlace(view, check);
  if (places.length === 0 && check.unknown_amounts.length === 0) return null;
  const labId = view.lab.id;
  return (
    <Alert
      color="orange"
      title="The count was recorded: check where these containers are kept"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="count-placement"
    >
      <Stack gap="xs">
        {places.length > 0 && (
          <Text size="sm">
            A count records what is on the shelf, so it was applied whatever the lab's safety settings say. What it put where (a place's
            page shows its meter and what is kept apart there):
          </Text>
        )}
        {places.map((p) => (
          <Stack gap={2} key={p.id ?? p.name}>
            {p.id ? (
              <Anchor
                component={Link}
                to={`/locations/${p.id}?lab=${labId}`}
                size="sm"
                fw={700}
                c="var(--mantine-color-text)"
                underline="always"
                style={{ overflowWrap: 'anywhere' }}
              >
                {p.name}
              </Anchor>
            ) : (
              <Text size="sm" fw={700}>
                {p.name}
              </Text>
            )}
            <Sentences lines={p.lines} />
          </Stack>
        ))}
        {check.unknown_amounts.length > 0 && (
          <Text size="sm" c="dimmed">
            Not counted against the limits, its amount not known from its unit size:{' '}
            {check.unknown_amounts.map((u) => u.item_name).join(', ')}.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
