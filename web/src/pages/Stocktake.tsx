import { Alert, Anchor, Button, Chip, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import type { PlacementCheck } from '../components/placement/gate';
import { ApplyDialog } from '../components/stocktake/ApplyDialog';
import { CountFindings } from '../components/stocktake/CountFindings';
import { LineCard } from '../components/stocktake/LineCard';
import { countedPlace } from '../components/stocktake/OpenCounts';
import { refreshStocktake } from '../components/stocktake/refresh';
import { ScanField } from '../components/stocktake/ScanField';
import { type StocktakeWithLines, useStocktake } from '../data/stocktake';
import { idempotent, useSubmission } from '../forms/submission';
import { NotFoundPage } from './NotFound';

type Show = 'all' | 'missing' | 'unexpected' | 'different';
const SHOW: { value: Show; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'missing', label: 'Not counted' },
  { value: 'unexpected', label: 'Unexpected' },
  { value: 'different', label: 'Different' },
];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');
const who = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}` : 'someone');

/**
 * A count of a location and everything below it, or of a lab without instances, whose lines are its items
 * (docs/stocktake.md): the containers expected there, ticked or
 * counted by anyone counting at the same time, unexpected ones added by their code, a summary, then Apply with a
 * confirmation. An open count can be left and resumed (from the location tree, or this page's address).
 */
export function StocktakePage() {
  const { id = '' } = useParams();
  const count = useStocktake(id);
  if (count.error instanceof LabstockError && count.error.code === 'not_found') return <NotFoundPage what="count" />;
  if (count.error) return <ErrorNotice error={count.error} />;
  if (!count.data) return <Loading label="Loading the count" />;
  return <Counting view={count.data} />;
}

function Counting({ view }: { view: StocktakeWithLines }) {
  const [show, setShow] = useState<Show>('all');
  const [applying, setApplying] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  // Only the apply's answer carries what the count put where (docs/safety.md): kept for this visit of the page.
  const [findings, setFindings] = useState<PlacementCheck | null>(null);
  const open = view.status === 'open';
  const place = countedPlace(view);
  const items = view.covers === 'lab';
  const s = view.summary;
  const lines = show === 'all' ? view.lines : view.lines.filter((l) => l.state === show);
  return (
    <Stack>
      <Stack gap={2}>
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          Count of {place}
        </Title>
        <Text size="sm" c="dimmed">
          {view.lab.name} · started {when(view.started_at)} by {who(view.started_by)}
        </Text>
      </Stack>
      {view.status === 'applied' && (
        <Alert color="green" title="Applied" data-testid="count-status" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          Applied {when(view.finished_at)} by {who(view.finished_by)}
          {view.missing_set_to_zero ? `; the ${items ? 'items' : 'containers'} not counted were set to zero.` : '.'}
        </Alert>
      )}
      {view.status === 'applied' && findings && <CountFindings view={view} check={findings} />}
      {view.status === 'cancelled' && (
        <Alert color="gray" title="Cancelled" data-testid="count-status">
          Cancelled {when(view.finished_at)} by {who(view.finished_by)}; nothing was changed.
        </Alert>
      )}
      <Text data-testid="count-summary" aria-live="polite">
        {s.expected - s.missing} of {s.expected} counted · {s.missing} {open ? 'not counted yet' : 'missing'} ·{' '}
        {/* A lab's count expects every item of the lab: nothing can be unexpected there. */}
        {items ? '' : `${s.unexpected} unexpected · `}
        {s.different} different
      </Text>
      {open && <ScanField stocktakeId={view.id} items={items} />}
      {open && (
        <Group gap="xs">
          <Button onClick={() => setApplying(true)}>Apply count…</Button>
          <Button variant="subtle" color="red" onClick={() => setCancelling(true)}>
            Cancel count
          </Button>
        </Group>
      )}
      <Group gap="xs">
        <Text size="sm">Report:</Text>
        {/* The API's addresses, outside /app: downloads (Content-Disposition), so no router links. */}
        <Anchor size="sm" href={`/stocktakes/${encodeURIComponent(view.id)}/report.csv`} download>
          spreadsheet (CSV)
        </Anchor>
        <Anchor size="sm" href={`/stocktakes/${encodeURIComponent(view.id)}/report.pdf`} download>
          PDF
        </Anchor>
        {items ? (
          <Anchor size="sm" component={Link} to={`/inventory?lab=${view.lab.id}`}>
            Back to the inventory
          </Anchor>
        ) : (
          <Anchor size="sm" component={Link} to={`/locations?lab=${view.lab.id}`}>
            Back to the locations
          </Anchor>
        )}
      </Group>
      <Chip.Group value={show} onChange={(v) => setShow(v as Show)}>
        <Group gap={6} wrap="wrap" aria-label="Show">
          {SHOW.filter((o) => !(items && o.value === 'unexpected')).map((o) => (
            <Chip key={o.value} value={o.value} size="sm">
              {o.label}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {lines.length === 0 && <Text c="dimmed">{view.lines.length === 0 ? 'Nothing is stored here.' : 'None.'}</Text>}
      <Stack gap="xs">
        {lines.map((line) => (
          <LineCard key={`${line.instance_id ?? line.item_id}-${line.counted_at ?? ''}`} stocktakeId={view.id} line={line} open={open} />
        ))}
      </Stack>
      {open && (
        <ApplyDialog
          view={view}
          opened={applying}
          onClose={() => setApplying(false)}
          onApplied={(applied) => setFindings(applied.placement_findings ?? null)}
        />
      )}
      {open && <CancelDialog id={view.id} opened={cancelling} onClose={() => setCancelling(false)} />}
    </Stack>
  );
}

function CancelDialog({ id, opened, onClose }: { id: string; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const cancel = useSubmission({
    name: `cancel-${id}`,
    send: (_, key) => unwrap(api.POST('/stocktakes/{id}/cancel', { params: { path: { id } }, headers: idempotent(key) })),
    onSuccess: async () => {
      await refreshStocktake(queryClient, id);
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Cancel this count?" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">Nothing in the inventory changes; what was counted stays readable in the report.</Text>
        {cancel.isError && <ErrorNotice error={cancel.error} title="Not cancelled" />}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            Keep counting
          </Button>
          <Button color="red" onClick={() => cancel.submit()} loading={cancel.isPending}>
            Cancel count
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
