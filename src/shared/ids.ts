import { v7 } from 'uuid';

/** Time-ordered UUIDs (v7) keep primary-key indexes append-mostly and make id a natural tie-breaker. */
export const newId = (): string => v7();
