import type { InventoryItem } from '@labstock/client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { idempotent, useSubmission } from '../forms/submission';
import { formFieldsFor, type ItemFields } from '../item-fields';
import { ErrorNotice } from './ErrorNotice';
import { apiValue, ItemForm, type ItemFormValues, valuesOf } from './ItemForm';
import { invalidateItem } from './QuantityEditor';
import { isStale, StaleNotice } from './StaleNotice';

/**
 * Edits an item's fields with PATCH /inventory-items/{id}: only the fields the person changed are sent, with the
 * ETag the page was read with (a 412 shows StaleNotice instead of overwriting someone else's change).
 */
export function ItemEditForm(props: { item: InventoryItem; etag: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { onDone } = props;
  // The item as the form was opened: if the page refetches meanwhile, the edit still goes with this ETag (so a change
  // by someone else is a 412) and is compared with these values (so their change is not sent back as the person's).
  const [{ item, etag }] = useState({ item: props.item, etag: props.etag });
  const [initial] = useState(() => valuesOf(props.item));
  const save = useSubmission({
    name: 'edit-item',
    // The form closes on success and may be opened again on this page for another change.
    renewOnSuccess: true,
    send: (values: ItemFormValues, key) => {
      const changed = formFieldsFor(item.lab.uses_instances).filter((key) => values[key].trim() !== initial[key].trim());
      const body = Object.fromEntries(
        changed.map((key) => [key, key === 'name' ? values.name.trim() : apiValue(key, values[key])]),
      ) as ItemFields;
      if (changed.length === 0) return Promise.resolve(item);
      return unwrap(
        api.PATCH('/inventory-items/{id}', {
          params: { path: { id: item.id }, header: { 'if-match': etag } },
          body,
          headers: idempotent(key),
        }),
      );
    },
    onSuccess: async () => {
      await invalidateItem(queryClient, item.id);
      onDone();
    },
  });
  if (save.isError && isStale(save.error)) return <StaleNotice itemId={item.id} onReloaded={onDone} />;
  return (
    <ItemForm
      labId={item.lab.id}
      usesInstances={item.lab.uses_instances}
      initial={initial}
      submitLabel="Save changes"
      pending={save.isPending}
      onSubmit={save.submit}
      onCancel={onDone}
      error={save.isError && <ErrorNotice error={save.error} title="Not saved" />}
    />
  );
}
