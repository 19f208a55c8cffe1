import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, unwrap } from './api';
import { keyOf } from './data/keys';
import { useSession } from './session';

// The lab a person last worked in (issue 23): remembered in this browser, per person, whenever a page shows a lab
// (its `?lab=` in the address, web/src/components/Shell.tsx), and used where a page needs one and none is given:
// the locations page, a new item, the home page's inventory counts (the inventory keeps its own filter, below). Without one, their first lab.

const KEY_PREFIX = 'labstock.last-lab.';

/** The inventory's own lab filter, last chosen on this browser: '' when the person chose "All my labs" (web/src/pages/Inventory.tsx). */
export const INVENTORY_LAB_KEY = 'labstock.inventory.lab';

const listeners = new Set<() => void>();

function read(userId: string): string | null {
  try {
    return localStorage.getItem(KEY_PREFIX + userId);
  } catch {
    return null; // storage refused (a private window's policy): nothing is remembered
  }
}

export function rememberLab(userId: string, labId: string | null): void {
  if (read(userId) === labId) return;
  try {
    if (labId) localStorage.setItem(KEY_PREFIX + userId, labId);
    else localStorage.removeItem(KEY_PREFIX + userId);
  } catch {
    return;
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The remembered lab of the signed-in person (or their first), and how to change it. */
export function useLastLab(): { labId: string | null; remembered: string | null; remember(labId: string | null): void } {
  const userId = useSession().user.id;
  const remembered = useSyncExternalStore(subscribe, () => read(userId));
  const first = useQuery({
    queryKey: keyOf('/labs', { query: { per_page: 1 } }),
    enabled: !remembered,
    queryFn: () => unwrap(api.GET('/labs', { params: { query: { per_page: 1 } } })),
  });
  return { labId: remembered ?? first.data?.[0]?.id ?? null, remembered, remember: (labId) => rememberLab(userId, labId) };
}

/** The remembered lab outside React (the shell's redirect reads it while rendering). */
export const lastLabOf = (userId: string): string | null => read(userId);
