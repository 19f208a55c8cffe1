import { Anchor, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCalendarDue, IconChecklist, IconFileInvoice, IconTrendingDown } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useLab, useLabs } from '../data/hooks';
import {
  EXPIRY_WINDOW_DAYS,
  expiringBefore,
  formatCount,
  useApprovalCount,
  useBelowMinimumCount,
  useExpiringCount,
  useOpenRequestCount,
  usePutAwayCount,
} from '../home/counts';
import { NeedCard, PutAwayCard } from '../home/NeedCard';
import { useLastLab } from '../last-lab';
import { OPEN_STATUSES, statusLabel } from '../orders';
import { useSession } from '../session';

/**
 * The home page (issue 23, docs/web.md "Home"): what needs the person, each a count and a link to the list it
 * counts. Requests are counted in all their labs; the inventory's in the lab they last worked in, which they can
 * change here (and which the inventory and locations pages then open).
 */
export function HomePage() {
  const { user } = useSession();
  const lastLab = useLastLab();
  const labId = lastLab.labId;
  const approvals = useApprovalCount();
  const open = useOpenRequestCount();
  const expiring = useExpiringCount(labId);
  const below = useBelowMinimumCount(labId);
  const putAway = usePutAwayCount();
  const labs = useLabs();
  const lab = useLab(labId);
  // A remembered lab the person no longer sees (removed from it, archived): forgotten, their first lab instead.
  const forget = lab.isError && lastLab.remembered === labId;
  useEffect(() => {
    if (forget) lastLab.remember(null);
  });
  const labOptions = (labs.data ?? []).map((l) => ({ value: l.id, label: l.name }));
  if (lab.data && !labOptions.some((o) => o.value === lab.data.id)) labOptions.unshift({ value: lab.data.id, label: lab.data.name });

  return (
    <Stack data-testid="home">
      <div>
        <Title order={2}>Hello, {user.first_name}</Title>
        <Text c="dimmed">What needs you today.</Text>
      </div>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" aria-label="Requests">
        <NeedCard
          testId="need-approvals"
          to="/order-requests/awaiting-approval"
          title="Waiting for your approval"
          count={approvals.data}
          failed={approvals.isError}
          icon={IconChecklist}
        />
        <NeedCard
          testId="need-open"
          to="/order-requests?mine=1"
          title="Your open requests"
          count={open.data}
          failed={open.isError}
          icon={IconFileInvoice}
        >
          <Group gap="md" mt="xs" data-testid="open-by-status">
            {OPEN_STATUSES.map((status) => (
              <StatusCount key={status} status={status} />
            ))}
          </Group>
        </NeedCard>
        <PutAwayCard count={putAway.data} to="/put-away" />
      </SimpleGrid>
      <Group justify="space-between" align="end" mt="sm">
        <Title order={3} size="h4">
          Inventory{lab.data ? ` in ${lab.data.name}` : ''}
        </Title>
        {labOptions.length > 1 && (
          <Select
            label="Lab"
            data={labOptions}
            value={labId}
            onChange={(value) => value && lastLab.remember(value)}
            allowDeselect={false}
            w={240}
          />
        )}
      </Group>
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {labId && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <NeedCard
            testId="need-expiring"
            to={`/inventory?lab=${labId}&expiring=${expiringBefore()}&sort=expiration_date`}
            title={`Expired or expiring within ${EXPIRY_WINDOW_DAYS} days`}
            count={expiring.data}
            failed={expiring.isError}
            icon={IconCalendarDue}
          />
          <NeedCard
            testId="need-below-minimum"
            to={`/inventory?lab=${labId}&below=true`}
            title="Below their minimum"
            count={below.data}
            failed={below.isError}
            icon={IconTrendingDown}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

function StatusCount({ status }: { status: (typeof OPEN_STATUSES)[number] }) {
  const count = useOpenRequestCount(status);
  return (
    <Anchor component={Link} to={`/order-requests?status=${status}&mine=1`} size="sm" data-testid={`open-${status.toLowerCase()}`}>
      {statusLabel(status)} <b>{formatCount(count.data)}</b>
    </Anchor>
  );
}
