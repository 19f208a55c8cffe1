import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

// Which tables this process writes, as the statements run: a Kysely plugin on every handle openDatabase makes.
// An in-process cache of rows of a table (src/accounts/auth-cache.ts) listens here, so that a write nobody told it
// about (a service that forgot, a repair script, a test editing a row) still makes it forget what it held. It
// hears after the statement has run (inside a transaction: before the commit, so callers still clear after it), in
// the async context of the code that ran it (a listener may tell its own writes by an AsyncLocalStorage).

export interface TableWrite {
  table: string;
  kind: 'insert' | 'update' | 'delete';
}

type Listener = (write: TableWrite) => void;
const listeners = new Set<Listener>();

/** Calls `listener` after every insert, update and delete that any handle of this process runs; returns an unsubscribe. */
export function onTableWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type Node = OperationNode & Record<string, unknown>;

/** The table a TableNode (or an aliased one) names. */
function tableName(node: unknown): string | null {
  let n = node as Node | undefined;
  if (n?.kind === 'AliasNode') n = n.node as Node;
  if (n?.kind !== 'TableNode') return null;
  return ((n.table as Node).identifier as { name: string }).name;
}

/** The write a statement's tree makes (null for a read): what the plugin reports after it ran. */
export function tableWriteOf(node: RootOperationNode): TableWrite | null {
  return node.kind === 'SelectQueryNode' ? null : describe(node);
}

/** Tells the listeners of a write run without the plugin (a precompiled statement: ./precompiled.ts). */
export function reportTableWrite(write: TableWrite): void {
  for (const listener of listeners) listener(write);
}

function describe(node: RootOperationNode): TableWrite | null {
  const n = node as unknown as Node;
  const [kind, target] =
    n.kind === 'InsertQueryNode'
      ? (['insert', n.into] as const)
      : n.kind === 'UpdateQueryNode'
        ? (['update', n.table] as const)
        : n.kind === 'DeleteQueryNode'
          ? (['delete', (n.from as { froms: unknown[] }).froms[0]] as const)
          : [null, null];
  const table = kind && tableName(target);
  return kind && table ? { table, kind } : null;
}

const pending = new WeakMap<object, TableWrite>();

/** The plugin openDatabase installs: reads the statement's tree (never changes it), reports after the statement ran. */
export const tableWritesPlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (listeners.size > 0 && args.node.kind !== 'SelectQueryNode') {
      const write = describe(args.node);
      if (write) pending.set(args.queryId, write);
    }
    return args.node;
  },
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const write = pending.get(args.queryId);
    if (write) {
      pending.delete(args.queryId);
      for (const listener of listeners) listener(write);
    }
    return args.result;
  },
};
