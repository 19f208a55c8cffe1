import type { components, operations } from '@labstock/client';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from './keys';

// Label codes and label printing (docs/labels.md), through the typed client.

export type LabelCode = components['schemas']['LabelCode'];
export type LabelLayout = components['schemas']['LabelLayout'];
export type PrintRequest = operations['printLabels']['requestBody']['content']['application/json'];

/** What a scanned code is (GET /codes/{code}); a 404 is an error the page shows as "not found". */
export function useCode(code: string) {
  const params = { path: { code } };
  return useQuery({
    queryKey: keyOf('/codes/{code}', params),
    retry: false,
    queryFn: () => unwrap(api.GET('/codes/{code}', { params })),
  });
}

/** The codes of one thing (GET /codes): an instance's, a location's, or an item's (its own or its containers'). */
export function useCodesOf(query: { instance_id?: string; location_id?: string; item_id?: string }, options: { enabled?: boolean } = {}) {
  const params = { query };
  return useQuery({
    queryKey: keyOf('/codes', params),
    enabled: options.enabled !== false,
    queryFn: () => unwrap(api.GET('/codes', { params })),
  });
}

/** The label stocks (GET /labels/layouts). */
export function useLabelLayouts() {
  return useQuery({
    queryKey: keyOf('/labels/layouts'),
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () => unwrap(api.GET('/labels/layouts')),
  });
}

/**
 * Asks for the labels (POST /labels) and hands the file to the browser as a download. A POST, not a link: the
 * selection can be hundreds of ids. Errors throw as every other call's do (the form shows them).
 */
export async function downloadLabels(body: PrintRequest): Promise<string> {
  const result = await api.POST('/labels', { body, parseAs: 'blob' });
  const blob = (await unwrap(result)) as unknown as Blob;
  const name = /filename="([^"]+)"/.exec(result.response.headers.get('content-disposition') ?? '')?.[1] ?? `labels.${body.format}`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
