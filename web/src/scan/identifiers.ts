import type { components } from '@labstock/client';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from '../data/keys';

// A container's product number (GTIN) and serial number, kept from its vendor barcode (docs/scanning.md
// "Identifiers"), through the typed client.

export type InstanceIdentifiers = components['schemas']['InstanceIdentifiers'];

/** Those of every container of an item that has any (GET /inventory-items/{id}/identifiers), by instance. */
export function useItemIdentifiers(itemId: string, options: { enabled?: boolean } = {}) {
  const params = { path: { id: itemId } };
  return useQuery({
    queryKey: keyOf('/inventory-items/{id}/identifiers', params),
    enabled: options.enabled !== false,
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/identifiers', { params })),
    select: (rows) => new Map(rows.map((r) => [r.instance_id, r])),
  });
}

/** The words a page shows for them: "Product number 09506000134352 · Serial number S0042"; null when none. */
export function identifierWords(ids: Pick<InstanceIdentifiers, 'gtin' | 'serial_number'> | undefined): string | null {
  if (!ids) return null;
  const words = [ids.gtin ? `Product number ${ids.gtin}` : null, ids.serial_number ? `Serial number ${ids.serial_number}` : null];
  return words.filter(Boolean).join(' · ') || null;
}
