/** What a response says beside its body, read from its headers (docs/api.md names each of them). */
export interface ResponseMeta {
  /** HTTP status. */
  status: number;
  /** All the headers, for anything not named below. */
  headers: Headers;
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | undefined;
  /** `ETag` of an item: send it back as `If-Match` so that a change made meanwhile is refused (412). */
  etag: string | undefined;
  /** `X-Total-Count` of a list: the number of elements on every page together. */
  totalCount: number | undefined;
  /** The `Link` header's links by relation (`next`, `prev`, `first`, `last`). */
  links: Record<string, string>;
  /** `Idempotent-Replayed: true`: the answer of an earlier request with the same Idempotency-Key. */
  idempotentReplayed: boolean;
  /** `Location` of a created resource. */
  location: string | undefined;
}

/** The meta of a response (every call's result carries it as `meta`). */
export function responseMeta(response: Response): ResponseMeta {
  const { headers } = response;
  const total = headers.get('x-total-count');
  return {
    status: response.status,
    headers,
    requestId: headers.get('x-request-id') ?? undefined,
    etag: headers.get('etag') ?? undefined,
    totalCount: total === null || !/^\d+$/.test(total) ? undefined : Number(total),
    links: parseLinkHeader(headers.get('link')),
    idempotentReplayed: headers.get('idempotent-replayed') === 'true',
    location: headers.get('location') ?? undefined,
  };
}

/** The links of an RFC 8288 `Link` header by relation: `{ next: 'https://…?page=3', last: … }`. */
export function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match[2]!);
    for (const name of (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean)) links[name.toLowerCase()] ??= match[1]!;
  }
  return links;
}

/**
 * Milliseconds to wait from a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date (a date in
 * the past is 0). Undefined when there is none or it cannot be read.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
