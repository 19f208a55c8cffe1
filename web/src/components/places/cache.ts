import type { QueryClient } from '@tanstack/react-query';
import { invalidate } from '../../data/keys';

/** After a change to a control area: its marking, its meter and the Safety page's report per control area. */
export const invalidateControlArea = (queryClient: QueryClient, id: string) =>
  invalidate(
    queryClient,
    ['/locations/{id}/control-area', { id }],
    ['/locations/{id}/control-area/meter', { id }],
    '/labs/{id}/hazard-report',
  );
