import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A table's page, order and filters, kept in the address's query string: a link reproduces the view, back and
 * forward step through it, and changing a filter or the order goes back to page 1.
 */
export function useTableState(options: { defaultSort?: string; perPage?: number } = {}) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page') ?? 1)) || 1);
  const sort = params.get('sort') ?? options.defaultSort;
  /** Sets filters (null removes one); the page goes back to 1. */
  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(name);
            else next.set(name, value);
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: !('page' in changes) },
      ),
    [setParams],
  );
  return {
    page,
    sort,
    perPage: options.perPage ?? 25,
    get: (name: string) => params.get(name),
    set,
    setPage: (n: number) => set({ page: n === 1 ? null : String(n) }),
    setSort: (value: string) => set({ sort: value === options.defaultSort ? null : value }),
  };
}

export type TableState = ReturnType<typeof useTableState>;
