import type { components } from '@labstock/client';

// The control area's answers as the client types them (words.ts stays free of them: it is unit-tested).

export type ControlArea = components['schemas']['ControlArea'];
export type Meter = components['schemas']['ControlAreaMeter'];
export type MeterLine = Meter['lines'][number];
export type Limit = ControlArea['limits'][number];
export type SegregationReport = components['schemas']['SegregationReport'];
