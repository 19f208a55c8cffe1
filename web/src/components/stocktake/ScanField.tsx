import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api, describeError, LabstockError, unwrap } from '../../api';
import { idempotent, useSubmission } from '../../forms/submission';
import { CameraScanner } from '../../scan/CameraScanner';
import { useScanEvents } from '../../scan/wedge';
import { refreshStocktake } from './refresh';

/** A label's code, or the address it encodes (…/app/c/{code}), as typed or scanned. */
export const codeOf = (text: string): string => {
  const t = text.trim();
  const m = /\/c\/([^/?#\s]+)\s*$/.exec(t);
  return m ? decodeURIComponent(m[1]!) : t;
};

type Place = { id: string; name: string };

/**
 * Scan or type a label's code (`items`: the count covers a lab without instances, whose items wear their own labels) (docs/labels.md; a keyboard-wedge scanner types the code and Enter into this field, or
 * anywhere on the page: the count takes the scan instead of the app-wide scan page; or the camera reads the label).
 * A location's code sets where the next containers are found; a container's code counts it there (or where it is
 * recorded, before any location was scanned). A code the person may not see is "not found", nothing more.
 */
export function ScanField({ stocktakeId, items = false }: { stocktakeId: string; items?: boolean }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [said, setSaid] = useState<{ text: string; ok: boolean } | null>(null);
  const [camera, setCamera] = useState(false);
  const scan = useSubmission({
    name: 'scan-count',
    renewOnSuccess: true,
    send: async (code: string, key) => {
      let found: Awaited<ReturnType<typeof resolve>>;
      try {
        found = await resolve(code);
      } catch (err) {
        if (err instanceof LabstockError && err.code === 'not_found') return { text: `Code ${code}: not found.`, ok: false };
        throw err;
      }
      // A count of a lab without instances (docs/stocktake.md): an item's own label counts it, as recorded.
      if (items) {
        if (found.kind !== 'item' || !found.item_id)
          return { text: `${found.title}: not an item of this lab, so it is not counted here.`, ok: false };
        await unwrap(
          api.PUT('/stocktakes/{id}/items/{itemId}', {
            params: { path: { id: stocktakeId, itemId: found.item_id } },
            body: {},
            headers: idempotent(key),
          }),
        );
        return { text: `Counted: ${found.title}${found.lines[0] ? `, ${found.lines[0]}` : ''}.`, ok: true };
      }
      if (found.kind === 'location' && found.location_id) {
        setPlace({ id: found.location_id, name: found.title });
        return { text: `Counting at ${found.lines[0] ?? found.title}.`, ok: true };
      }
      if (found.kind !== 'instance' || !found.instance_id)
        return { text: `${found.title}: this lab keeps no containers by location, so it is not counted here.`, ok: false };
      const body = place ? { location_id: place.id } : {};
      await unwrap(
        api.PUT('/stocktakes/{id}/counts/{instanceId}', {
          params: { path: { id: stocktakeId, instanceId: found.instance_id } },
          body,
          headers: idempotent(key),
        }),
      );
      return { text: `Counted: ${found.title}${found.lines[0] ? `, ${found.lines[0]}` : ''}.`, ok: true };
    },
    onSuccess: (result) => {
      setSaid(result);
      setText('');
      input.current?.focus();
      return refreshStocktake(queryClient, stocktakeId);
    },
    onError: (err) => setSaid({ text: describeError(err), ok: false }),
  });
  const take = (scanned: string) => {
    const code = codeOf(scanned);
    if (code) scan.submit(code);
  };
  // A wedge scan made outside the field (after a tick, say) counts here rather than opening the scan page.
  useScanEvents((scanned) => {
    take(scanned);
    return true;
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    take(text);
  };
  return (
    <Stack gap={4}>
      <form onSubmit={submit}>
        <Group align="end" gap="xs" wrap="nowrap">
          <TextInput
            ref={input}
            label="Scan or type a code"
            description={items ? "An item's label counts it as recorded." : "A location's code first counts the next containers there."}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            style={{ flex: 1, minWidth: 0 }}
            maw={360}
          />
          <Button type="submit" loading={scan.isPending} disabled={!text.trim()}>
            Count
          </Button>
        </Group>
      </form>
      <Button variant="subtle" size="compact-sm" onClick={() => setCamera((c) => !c)} w="fit-content">
        {camera ? 'Hide the camera' : 'Use the camera'}
      </Button>
      {camera && <CameraScanner onScan={take} autoStart label="Start the camera" />}
      <div aria-live="polite" data-testid="scan-result">
        {said && (
          <Text size="sm" c={said.ok ? undefined : 'red'}>
            {said.text}
          </Text>
        )}
      </div>
      {place && (
        <Group gap="xs">
          <Text size="sm">Counting at {place.name}.</Text>
          <Button size="compact-xs" variant="subtle" onClick={() => setPlace(null)}>
            Count where recorded
          </Button>
        </Group>
      )}
    </Stack>
  );
}

const resolve = (code: string) => unwrap(api.GET('/codes/{code}', { params: { path: { code } } }));
