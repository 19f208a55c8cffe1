import type { components } from '@labstock/client';
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from '../data/keys';
import { statusLabel } from '../orders';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

type Entry = components['schemas']['OrderRequestEvent'];
type Receipt = components['schemas']['OrderReceipt'];

// The request's history as sentences (docs/web.md, "Their words"): "Ada set the PO number to PO-2026-1142", "Max
// received 2 of lot GR3323 into Room 101 / Freezer A". The server's entries are its moves (the status), detail changes
// (UPDATED: "field: old → new; …", src/order-requests/details.ts), receipts in parts and budget notes; a receipt's lot
// and place come from GET /order-requests/{id}/delivery, whose receipts share their entry's instant.

const FIELD_WORDS: Record<string, string> = {
  notes: 'the notes',
  unit_size: 'the unit size',
  invoice_number: 'the invoice number',
  requisition_number: 'the requisition number',
  confirmation_number: 'the confirmation number',
  tracking_number: 'the tracking number',
  purchase_order_number: 'the PO number',
  shipping_and_handling: 'shipping and handling',
  details: 'the details',
  expected_delivery_date: 'the expected delivery date',
  spend_tracking_code: 'the spend tracking code',
  is_urgent: 'urgent',
};
const REJECTED = 'Rejected: ';

const unquote = (v: string): string | null => {
  try {
    const parsed: unknown = JSON.parse(v);
    return parsed === null ? null : String(parsed);
  } catch {
    return v;
  }
};

/** "purchase_order_number: null → \"PO-1\"; is_urgent: false → true" as "set the PO number to PO-1 and marked it urgent". */
export function detailChanges(comment: string): string {
  const start = comment.search(new RegExp(`(^|: )(${Object.keys(FIELD_WORDS).join('|')}): `));
  const body = start <= 0 ? comment : comment.slice(comment.indexOf(': ', start) + 2);
  const parts = body.split('; ').map((part) => {
    const m = /^([a-z_]+): (.*) → (.*)$/s.exec(part);
    if (!m || !FIELD_WORDS[m[1]!]) return part;
    const [field, value] = [m[1]!, unquote(m[3]!)];
    if (field === 'is_urgent') return value === 'true' ? 'marked it urgent' : 'marked it not urgent';
    return value === null ? `cleared ${FIELD_WORDS[field]}` : `set ${FIELD_WORDS[field]} to ${value}`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

const where = (r: Receipt): string => {
  const lot = r.lot_number ? ` of lot ${r.lot_number}` : '';
  const place = r.location ? ` into ${r.location.pathNames.join(' / ')}` : ' into the inventory';
  return `received ${r.quantity}${lot}${place}`;
};

/** One entry as a sentence, without the person's name (the caller puts it first). */
export function entrySentence(entry: Entry, first: boolean, receipt: Receipt | undefined): string {
  const comment = entry.comment ?? '';
  switch (entry.type) {
    case 'CREATED':
      return first ? 'requested it' : 'reopened it';
    case 'APPROVED':
      return 'approved it';
    case 'ORDERED':
      return comment.startsWith('checked out in shop order') ? 'ordered it in the shop' : 'marked it ordered';
    case 'BACKORDERED':
      return 'marked it backordered';
    case 'CANCELLED':
      return comment.startsWith(REJECTED) ? `rejected it: ${comment.slice(REJECTED.length)}` : 'cancelled it';
    case 'RECEIVED':
    case 'PARTLY_RECEIVED':
      return receipt ? where(receipt) : 'received it';
    case 'UPDATED':
      return detailChanges(comment);
    case 'OVER_BUDGET':
      return `went over budget: ${comment}`;
    default:
      return `${statusLabel(entry.type).toLowerCase()}${comment ? `: ${comment}` : ''}`;
  }
}

/**
 * The request's history (GET /order-requests/{id}/history), newest first, one sentence each. Every change
 * to the request (a move, an edit, receiving) reads it again: they call invalidateOrder (web/src/data/keys.ts).
 */
export function OrderHistory({ orderId }: { orderId: string }) {
  const history = useQuery({
    queryKey: keyOf('/order-requests/{id}/history', { path: { id: orderId } }),
    queryFn: () => unwrap(api.GET('/order-requests/{id}/history', { params: { path: { id: orderId } } })),
  });
  const delivery = useQuery({
    queryKey: keyOf('/order-requests/{id}/delivery', { path: { id: orderId } }),
    queryFn: () => unwrap(api.GET('/order-requests/{id}/delivery', { params: { path: { id: orderId } } })),
  });
  const receipts = delivery.data?.receipts ?? [];
  return (
    <>
      <Title order={3}>History</Title>
      {history.isError && <ErrorNotice error={history.error} />}
      {history.isPending && <Loading label="Loading the history" size="sm" />}
      {history.data && (
        <Stack component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }} aria-label="History" data-testid="order-history">
          {history.data
            .map((entry, i) => ({ entry, i }))
            .reverse()
            .map(({ entry, i }) => {
              const who = `${entry.created_by.first_name} ${entry.created_by.last_name}`.trim();
              const receipt = receipts.find((r) => r.received_at === entry.created_at && r.received_by.id === entry.created_by.id);
              return (
                <li key={`${entry.created_at}-${entry.type}-${i}`} data-testid="history-entry">
                  <Text size="sm">
                    {who} {entrySentence(entry, i === 0, receipt)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {new Date(entry.created_at).toLocaleString()}
                  </Text>
                </li>
              );
            })}
        </Stack>
      )}
    </>
  );
}
