import { v7 } from 'uuid';

/** Time-ordered UUIDs (v7) keep primary-key indexes append-mostly and make id a natural tie-breaker. */
export const newId = (): string => v7();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s);
