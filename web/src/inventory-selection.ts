import { useSessionStorage } from '@mantine/hooks';

// The inventory list's selection (docs/labels.md, "In the web application"): the items a person ticked, by id, with
// their names (what "Print labels" and the count say). Kept in this tab's sessionStorage, so it survives turning
// pages, changing the filters or the lab, and opening an item and coming back; it ends when the person clears it
// or closes the tab. It never leaves the browser: printing sends the ids (POST /labels `item_ids`).

const KEY = 'labstock:inventory-selection';

export interface Selectable {
  id: string;
  name: string;
}

export interface InventorySelection {
  /** The selected items' ids, in the order they were selected. */
  ids: string[];
  has(id: string): boolean;
  toggle(item: Selectable, on: boolean): void;
  /** Selects (or unselects) every item of the page shown. */
  setAll(items: Selectable[], on: boolean): void;
  clear(): void;
}

export function useInventorySelection(): InventorySelection {
  const [selected, setSelected] = useSessionStorage<Record<string, string>>({
    key: KEY,
    defaultValue: {},
    // Read at once, so a page that opens with a selection shows it in its first paint.
    getInitialValueInEffect: false,
    // One tab's selection is its own: another tab of the same list starts with none.
    sync: false,
  });
  const setAll = (items: Selectable[], on: boolean) =>
    setSelected((current) => {
      const next = { ...current };
      for (const item of items) {
        if (on) next[item.id] = item.name;
        else delete next[item.id];
      }
      return next;
    });
  return {
    ids: Object.keys(selected),
    has: (id) => Object.hasOwn(selected, id),
    toggle: (item, on) => setAll([item], on),
    setAll,
    clear: () => setSelected({}),
  };
}
