import type { Executor } from './db/database.js';

// Some folders keep documents that show what other folders own: an inventory item's stored document shows its lab's
// name, its type's name and the names of the people who added and last changed it (src/inventory/stored/). A folder
// below them (labs/, types/, accounts/) cannot import them (docs/decisions/0005-layers.md), so it announces here,
// inside the transaction of its change, what changed; the folders that show it registered when they were loaded
// (docs/decisions/0015-stored-item-documents.md).

/** What changed of things shown elsewhere: labs' names or modes, types' names, people's names. */
export interface ShownChange {
  labIds?: string[];
  typeIds?: string[];
  userIds?: string[];
}

/** `appUrl`: the installation's APP_URL, which the documents show (config.appUrl). */
type Listener = (trx: Executor, appUrl: string, change: ShownChange) => Promise<void>;

const listeners = new Set<Listener>();

/** Registers a folder that shows things of others (once per process; registering twice changes nothing). */
export function onShownChange(listener: Listener): void {
  listeners.add(listener);
}

/** Call in the transaction of the change: every document showing it is rewritten before it commits. */
export async function shownChanged(trx: Executor, appUrl: string, change: ShownChange): Promise<void> {
  for (const listener of listeners) await listener(trx, appUrl, change);
}
