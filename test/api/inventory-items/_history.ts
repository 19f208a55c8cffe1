// Shared by the item-history tests (no tests in here): the keys of every history entry, the lot and places it
// concerns included (docs/ordering.md), and the stocktake it came from (docs/stocktake.md).
export const HISTORY_KEYS = [
  'changed_at',
  'changed_by',
  'field',
  'id',
  'instance_id',
  'location',
  'lot_number',
  'new_location',
  'new_value',
  'note',
  'old_location',
  'old_value',
  'order_request_id',
  'stocktake_id',
];
