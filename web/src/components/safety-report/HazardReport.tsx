import type { components } from '@labstock/client';
import { Anchor, Badge, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

// A lab's hazard inventory on the Safety page (docs/hazard-reports.md): per place, each hazard class with its sums
// and its containers; a control area's limits as bars. Words only: no class ids, no field names.

export type HazardReport = components['schemas']['HazardReport'];
type Group_ = HazardReport['groups'][number];
type Class = Group_['classes'][number];
type Limit = Group_['limits'][number];

const placeWords = (path: string[]) => (path.length === 0 ? 'No location' : path.join(' / '));
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "6 L, 1.2 kg and 1 container of unknown size". */
export function totalWords(c: Class): string {
  const parts = [c.total.volume?.text, c.total.mass?.text, c.total.count?.text].filter((t): t is string => !!t);
  if (c.unknown > 0) parts.push(`${plural(c.unknown, 'container', 'containers')} of unknown size`);
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function HazardReportView({ report }: { report: HazardReport }) {
  if (report.groups.length === 0) {
    return (
      <Text data-testid="report-empty">
        {report.by === 'control-area' ? 'No control area holds anything with a hazard.' : 'Nothing with a hazard is stored here.'}
      </Text>
    );
  }
  return (
    <Stack gap="lg" data-testid="hazard-report">
      {report.groups.map((g) => (
        <PlaceSection
          key={g.location.id ?? placeWords(g.location.path)}
          group={g}
          labId={report.lab.id}
          by={report.by}
          showWhere={report.by !== 'location'}
        />
      ))}
    </Stack>
  );
}

// What the place's own page holds for this view: a building's kept-apart list is its own floor's, not its rooms'.
const PAGE_LINK: Record<HazardReport['by'], string> = {
  'control-area': 'Meter and limits',
  location: 'What is kept apart here',
  building: "The building's page",
};

function PlaceSection({ group, labId, by, showWhere }: { group: Group_; labId: string; by: HazardReport['by']; showWhere: boolean }) {
  return (
    <Stack gap="xs" data-testid="report-place">
      <Group gap="xs">
        <Title order={3}>{placeWords(group.location.path)}</Title>
        {group.control_area && <Badge variant="light">Control area</Badge>}
        {group.location.id && (
          // The location's own page (web/src/pages/Location.tsx): its meter, its limits and what must be kept apart.
          <Anchor component={Link} to={`/locations/${group.location.id}?lab=${labId}`} size="sm">
            {group.control_area ? PAGE_LINK['control-area'] : PAGE_LINK[by]}
          </Anchor>
        )}
      </Group>
      {group.limits.map((l) => (
        <LimitBar key={`${l.label}-${l.state}`} limit={l} />
      ))}
      {group.classes.map((c) => (
        <ClassCard key={c.class_id} cls={c} showWhere={showWhere} />
      ))}
    </Stack>
  );
}

function LimitBar({ limit }: { limit: Limit }) {
  const share = Number(limit.limit) > 0 ? Math.min(100, (Number(limit.stored) / Number(limit.limit)) * 100) : 100;
  const unknown = limit.unknown > 0 ? `; ${plural(limit.unknown, 'container', 'containers')} of unknown amount not counted` : '';
  return (
    <div data-testid="report-limit">
      <Text size="sm" fw={limit.over ? 700 : 400} c={limit.over ? 'red.8' : undefined}>
        {limit.over ? 'Over the limit: ' : ''}
        {limit.label} ({limit.state}): {limit.text}
        {unknown}
      </Text>
      <Progress value={share} color={limit.over ? 'red' : share >= 80 ? 'orange' : 'teal'} aria-label={`${limit.label}: ${limit.text}`} />
    </div>
  );
}

function ClassCard({ cls, showWhere }: { cls: Class; showWhere: boolean }) {
  return (
    <Card withBorder padding="sm" data-testid="report-class">
      <Text fw={600}>
        {cls.name}, category {cls.category}
      </Text>
      <Text size="sm" mb={4}>
        {totalWords(cls)} in {plural(cls.containers, 'container', 'containers')}
      </Text>
      <Stack gap={2}>
        {cls.items.map((i) => (
          <Text size="sm" key={`${i.instance_id ?? i.item_id}`}>
            <Anchor component={Link} to={`/inventory/items/${i.item_id}${i.instance_id ? `?instance=${i.instance_id}` : ''}`}>
              {i.name}
            </Anchor>
            {' · '}
            {i.unit_size ? `${i.quantity} × ${i.unit_size}` : `${i.quantity}, no unit size`}
            {' = '}
            {i.amount.text ?? 'amount unknown'}
            {showWhere && ` · ${placeWords(i.location_path)}`}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
