import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';

// A title per page (issue 23), set in one place: each route of web/src/routes.tsx names its page in `handle.title`
// and this, the root of every route, writes "Inventory · Labstock" into the tab. A page needs no code of its own;
// a route without one shows "Labstock".

export interface RouteHandle {
  title?: string;
}

export const BRAND = 'Labstock';

export function titleOf(matches: { handle: unknown }[]): string {
  const named = matches.map((m) => (m.handle as RouteHandle | undefined)?.title).filter((t): t is string => !!t);
  const page = named.at(-1);
  return page ? `${page} · ${BRAND}` : BRAND;
}

/** The root route's element: the page below it, and its title in the tab. */
export function TitledOutlet() {
  const title = titleOf(useMatches());
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}
