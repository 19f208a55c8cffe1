import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import { IconPackageImport as PutAwayIcon } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { type Count, formatCount } from './counts';

/**
 * One thing that needs the person: a count, what it counts, and the whole card a link to the list it counts. The
 * count is the first thing in it, large, so it shows on a phone without opening anything.
 */
export function NeedCard(props: {
  testId: string;
  to: string;
  title: string;
  count: Count | undefined;
  failed?: boolean;
  icon: ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;
  children?: ReactNode;
}) {
  const Icon = props.icon;
  const count = props.failed ? '?' : formatCount(props.count);
  return (
    <Card withBorder radius="md" padding="md" data-testid={props.testId}>
      <Card.Section
        inheritPadding
        py="sm"
        component={Link}
        to={props.to}
        style={{ color: 'inherit', textDecoration: 'none', display: 'block' }}
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Text fz={36} fw={700} lh={1.1} data-testid="count" c={props.count?.total ? undefined : 'dimmed'}>
              {count}
            </Text>
            <Text fw={600} mt={4}>
              {props.title}
            </Text>
          </div>
          <ThemeIcon variant="light" size={40} radius="md">
            <Icon size={24} stroke={1.6} aria-hidden />
          </ThemeIcon>
        </Group>
      </Card.Section>
      {props.children}
    </Card>
  );
}

/**
 * Deliveries that arrived without a lot, an expiry or a place ("To put away", issue 23): shown on the home page once
 * the server counts them; until then the home page does not render it. Nothing to put away is said plainly.
 */
export function PutAwayCard({ count, to }: { count: Count | undefined; to: string }) {
  return (
    <NeedCard testId="need-put-away" to={to} title="To put away" count={count} icon={PutAwayIcon}>
      {count?.total === 0 && (
        <Text size="sm" c="dimmed">
          Everything received has its lot, expiry and place.
        </Text>
      )}
    </NeedCard>
  );
}
