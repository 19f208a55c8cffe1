import { describe, expect, it } from 'vitest';
import { isMigrating, migrationStatus } from '../labs/migrating.js';
import { CONVERTED, isConverted, legacyPath, parseBatchSize, pathKey, planItem, progressOf } from './rules.js';

const legacy = (over: Partial<typeof CONVERTED> = {}) => ({ ...CONVERTED, ...over });

describe("an item's migration plan", () => {
  it('turns quantity, lot, expiry and location/sublocation into one instance with a two-level path', () => {
    expect(
      planItem(
        legacy({
          quantity: '1.50',
          lot_number: 'L1',
          expiration_date: '2027-01-31',
          location_name: 'Cabinet 1',
          sublocation_name: 'Shelf A',
        }),
      ),
    ).toEqual({
      instance: { quantity: '1.50', lot_number: 'L1', expiration_date: '2027-01-31', path: ['Cabinet 1', 'Shelf A'] },
      changed: true,
    });
  });

  it('a location alone is a one-level path; a sublocation alone becomes a root location', () => {
    expect(planItem(legacy({ quantity: '2', location_name: 'Freezer' })).instance?.path).toEqual(['Freezer']);
    expect(planItem(legacy({ quantity: '2', sublocation_name: 'Drawer 9' })).instance?.path).toEqual(['Drawer 9']);
    expect(planItem(legacy({ quantity: '2' })).instance).toEqual({ quantity: '2', lot_number: null, expiration_date: null, path: null });
  });

  it('trims location names like the location tree does; a blank name is no location', () => {
    expect(legacyPath('  Room 1 ', ' Shelf ')).toEqual(['Room 1', 'Shelf']);
    expect(legacyPath('   ', 'Shelf')).toEqual(['Shelf']);
    expect(legacyPath('', '  ')).toBeNull();
    expect(legacyPath(null, null)).toBeNull();
  });

  it('a zero quantity with a lot, an expiry or a location still becomes an instance (of quantity zero)', () => {
    expect(planItem(legacy({ lot_number: 'L0' })).instance).toEqual({ quantity: '0', lot_number: 'L0', expiration_date: null, path: null });
    expect(planItem(legacy({ quantity: '0.000', expiration_date: '2026-01-01' })).instance?.quantity).toBe('0.000');
    expect(planItem(legacy({ location_name: 'Bench' })).instance?.path).toEqual(['Bench']);
  });

  it('an item holding nothing gets no instance; it changes only if its stored values are not already the converted shape', () => {
    expect(planItem(legacy())).toEqual({ instance: null, changed: false });
    expect(planItem(legacy({ quantity: '0.00' }))).toEqual({ instance: null, changed: true });
    expect(planItem(legacy({ location_name: '  ' }))).toEqual({ instance: null, changed: true });
  });

  it('a converted item plans nothing: running the migration again changes nothing', () => {
    const once = legacy({ quantity: '5', lot_number: 'L', location_name: 'A', sublocation_name: 'B' });
    expect(planItem(once).changed).toBe(true);
    expect(isConverted(CONVERTED)).toBe(true);
    expect(planItem(CONVERTED)).toEqual({ instance: null, changed: false });
    expect(isConverted(legacy({ quantity: '0.0' }))).toBe(false);
  });

  it('path keys tell paths apart', () => {
    expect(pathKey(['A', 'B'])).not.toBe(pathKey(['A,B']));
    expect(pathKey(['A', 'B'])).not.toBe(pathKey(['AB']));
  });
});

describe('migration state and progress', () => {
  const lab = {
    id: 'lab-1',
    uses_instances: 0,
    migration_started_at: null,
    migration_updated_at: null,
    migration_finished_at: null,
    migration_items_total: null,
    migration_items_done: null,
  };

  it('legacy → running → done', () => {
    expect(migrationStatus(lab)).toBe('not_started');
    expect(isMigrating(lab)).toBe(false);
    const running = { ...lab, migration_started_at: '2026-01-01T00:00:00.000Z' };
    expect(migrationStatus(running)).toBe('running');
    expect(isMigrating(running)).toBe(true);
    expect(migrationStatus({ ...running, uses_instances: 1 })).toBe('done');
    expect(isMigrating({ ...lab, uses_instances: 1 })).toBe(false);
  });

  it('reports counts, never more migrated than the total, and all of it when done', () => {
    const running = {
      ...lab,
      migration_started_at: 't0',
      migration_updated_at: 't1',
      migration_items_total: 1000,
      migration_items_done: 500,
    };
    expect(progressOf(running)).toEqual({
      lab_id: 'lab-1',
      status: 'running',
      items_total: 1000,
      items_migrated: 500,
      started_at: 't0',
      updated_at: 't1',
      finished_at: null,
    });
    expect(progressOf({ ...running, migration_items_done: 1500 }).items_migrated).toBe(1000);
    expect(progressOf({ ...running, uses_instances: 1, migration_finished_at: 't2' })).toMatchObject({
      status: 'done',
      items_migrated: 1000,
      finished_at: 't2',
    });
  });

  it('a lab created with instances is done, 0 of 0', () => {
    expect(progressOf({ ...lab, uses_instances: 1 })).toEqual({
      lab_id: 'lab-1',
      status: 'done',
      items_total: 0,
      items_migrated: 0,
      started_at: null,
      updated_at: null,
      finished_at: null,
    });
  });

  it('batch sizes from the command line', () => {
    expect(parseBatchSize('500')).toBe(500);
    expect(parseBatchSize(' 1 ')).toBe(1);
    expect(parseBatchSize('5000')).toBe(5000);
    for (const bad of ['0', '5001', '-1', '1.5', 'abc', '', '1e3']) expect(parseBatchSize(bad), bad).toBeNull();
  });
});
