import type { components } from '@labstock/client';

export type Item = components['schemas']['InventoryItem'];
export type Instance = components['schemas']['InventoryItemInstance'];

/** What a person calls an instance in a sentence: its lot, or that it has none. */
export const instanceLabel = (instance: { lot_number: string | null }): string =>
  instance.lot_number ? `lot ${instance.lot_number}` : 'the instance without a lot number';

/** YYYY-MM-DD typed into a date field, or empty for none. */
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
