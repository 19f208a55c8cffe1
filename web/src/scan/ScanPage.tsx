import { Alert, Anchor, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, describeError, LabstockError, unwrap } from '../api';
import { invalidateItem } from '../components/QuantityEditor';
import { keyOf } from '../data/keys';
import type { LabelCode } from '../data/labels';
import { idempotent } from '../forms/submission';
import { CameraScanner } from './CameraScanner';
import { codeFromScan, looksLikeGs1 } from './codes';
import { ScannedContainer } from './ScannedContainer';
import { type FoundContainer, findByVendorBarcode } from './vendor-find';
import { useScanEvents } from './wedge';

type Notice = { kind: 'not-found' } | { kind: 'vendor' } | { kind: 'vendor-none' } | { kind: 'error'; text: string };
type Moved = { code: string; title: string; state: 'moving' | 'moved' | 'there' | 'failed'; why?: string };

const NOTICES = {
  'not-found': 'Not found.',
  vendor: 'That is a manufacturer’s barcode. Scan it in the receiving form of an order, or when adding a container.',
  'vendor-none':
    'No container was received with that manufacturer’s barcode. To receive one, scan it in the receiving form of an order, or when adding a container.',
};

/**
 * Scanning (docs/scanning.md): a label read by the camera, a keyboard-wedge scanner or typed. A container opens with
 * its one-tap actions; a location starts putting away: each container scanned after it is moved there, listed as it
 * goes. A code that is unknown or not the person's to see says "not found" and nothing else.
 */
export function ScanPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [shown, setShown] = useState<LabelCode | null>(null);
  const [scannedLocation, setScannedLocation] = useState<string | null>(null);
  const [target, setTarget] = useState<LabelCode | null>(null);
  const [moved, setMoved] = useState<Moved[]>([]);
  const [others, setOthers] = useState<FoundContainer[]>([]);
  const targetRef = useRef(target);
  targetRef.current = target;
  const shownRef = useRef(shown);
  shownRef.current = shown;

  const update = useCallback(
    (code: string, change: Partial<Moved>) => setMoved((list) => list.map((m) => (m.code === code ? { ...m, ...change } : m))),
    [],
  );

  /** One scan is one intention: its own Idempotency-Key, so a retry of it never moves twice. */
  const moveInto = useCallback(
    async (into: LabelCode, found: LabelCode) => {
      const entry: Moved = { code: found.code, title: [found.title, found.lines[0]].filter(Boolean).join(', '), state: 'moving' };
      setMoved((list) => [entry, ...list.filter((m) => m.code !== found.code)]);
      if (found.location_id === into.location_id) return update(found.code, { state: 'there' });
      try {
        await unwrap(
          api.PATCH('/inventory-items/{itemId}/instances/{itemInstanceId}', {
            params: { path: { itemId: found.item_id!, itemInstanceId: found.instance_id! } },
            body: { location_id: into.location_id },
            headers: idempotent(crypto.randomUUID()),
          }),
        );
        update(found.code, { state: 'moved' });
        await invalidateItem(queryClient, found.item_id!);
      } catch (error) {
        update(found.code, { state: 'failed', why: describeError(error) });
      }
    },
    [queryClient, update],
  );

  const handle = useCallback(
    async (text: string) => {
      setNotice(null);
      if (looksLikeGs1(text)) {
        // The containers received with this barcode (its serial, or its product number and lot): the first opens.
        setOthers([]);
        try {
          const result = await findByVendorBarcode(text);
          if (result.kind === 'unusable') return setNotice({ kind: 'vendor' });
          if (result.kind === 'none') return setNotice({ kind: 'vendor-none' });
          setTarget(null);
          setScannedLocation(null);
          setOthers(result.others);
          return setShown(result.code);
        } catch (error) {
          return setNotice({ kind: 'error', text: describeError(error) });
        }
      }
      const code = codeFromScan(text);
      if (!code) return setNotice({ kind: 'not-found' });
      let found: LabelCode;
      try {
        const params = { path: { code } };
        found = await queryClient.fetchQuery({
          queryKey: keyOf('/codes/{code}', params),
          queryFn: () => unwrap(api.GET('/codes/{code}', { params })),
          staleTime: 0,
          retry: false,
        });
      } catch (error) {
        if (error instanceof LabstockError && error.code === 'not_found') return setNotice({ kind: 'not-found' });
        return setNotice({ kind: 'error', text: describeError(error) });
      }
      const into = targetRef.current;
      if (found.kind === 'location') {
        // With a container open, a location's label is where to move it; otherwise it starts putting away.
        if (shownRef.current?.kind === 'instance' && !into) return setScannedLocation(found.location_id);
        setShown(null);
        setMoved([]);
        return setTarget(found);
      }
      if (found.kind === 'instance' && into && !found.archived) return moveInto(into, found);
      setOthers([]);
      setScannedLocation(null);
      setShown(found);
    },
    [queryClient, moveInto],
  );

  useScanEvents((text) => void handle(text));
  // A scan made on another page arrives here as ?code= (web/src/scan/ScanListener.tsx).
  const fromElsewhere = params.get('code');
  useEffect(() => {
    if (fromElsewhere === null) return;
    setParams({}, { replace: true });
    void handle(fromElsewhere);
  }, [fromElsewhere, handle, setParams]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!typed.trim()) return;
    void handle(typed);
    setTyped('');
  };

  return (
    <Stack>
      <Title order={2}>Scan</Title>
      <Text c="dimmed" size="sm">
        Scan a container’s label to use, move or archive it. Scan a shelf’s label first to put away: every container scanned after it is
        moved there. A barcode scanner works on any page.
      </Text>
      {notice && (
        <Alert
          color={notice.kind === 'not-found' ? 'gray' : 'orange'}
          title={notice.kind === 'error' ? 'Not opened' : undefined}
          role="alert"
          data-testid="scan-notice"
        >
          {notice.kind === 'error' ? notice.text : NOTICES[notice.kind]}
        </Alert>
      )}
      {target && (
        <Card withBorder padding="sm" data-testid="put-away-target" aria-label="Putting away">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs">
              <Group gap={6} wrap="nowrap">
                <IconMapPin size={18} aria-hidden />
                <Text fw={600}>Putting away into {target.title}</Text>
              </Group>
              <Text size="sm" c="dimmed" w="100%">
                {target.lines.join(' · ')}
              </Text>
              <Button variant="default" size="xs" onClick={() => setTarget(null)}>
                Done
              </Button>
            </Group>
            {moved.length === 0 ? (
              <Text size="sm" c="dimmed">
                Scan each container that goes here.
              </Text>
            ) : (
              <List size="sm" spacing={4} data-testid="moved-list">
                {moved.map((m) => (
                  <List.Item key={m.code}>
                    {m.title}:{' '}
                    {{ moving: 'moving…', moved: 'moved here', there: 'already here', failed: `not moved. ${m.why ?? ''}` }[m.state]}
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Card>
      )}
      {shown && <ScannedContainer key={shown.code} code={shown} scannedLocationId={scannedLocation} />}
      {others.length > 0 && (
        <Card withBorder padding="sm" aria-label="Other containers with this barcode" data-testid="vendor-others">
          <Text size="sm" fw={600}>
            {others.length === 1 ? 'One more container carries' : `${others.length} more containers carry`} this barcode
          </Text>
          <List size="sm" spacing={4}>
            {others.map((c) => (
              <List.Item key={c.instance_id}>
                <Anchor component={Link} to={c.app_path.replace(/^\/app/, '')}>
                  {[c.item_name, c.lot_number ? `lot ${c.lot_number}` : null, c.lab.name, c.archived ? 'archived' : null]
                    .filter(Boolean)
                    .join(' · ')}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Card>
      )}
      <CameraScanner onScan={(text) => void handle(text)} />
      <form onSubmit={submit} aria-label="Type a code">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Code"
            placeholder="Type the code under the barcode"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            data-scan-field
            autoComplete="off"
            style={{ flex: 1 }}
            maw={360}
          />
          <Button type="submit" variant="default">
            Open
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
