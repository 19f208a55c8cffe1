import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 27, point 4: a lab's page of items found without walking the lab's index up to it
// (docs/decisions/0028-page-marks.md). The lab's items, in the list's order (created_at, id), are cut into runs;
// each run is a row here: the key it starts at (inclusive, up to the next row's key) and how many items it holds.
// A page at OFFSET n sums the runs' counts up to n, seeks the index to that run's key, and skips fewer than a run.
//
// Kept exact by triggers on inventory_items, like inventory_lab_counts (0017), so that every insert and delete
// counts, whichever code path or bulk load wrote it; an item never changes its lab or its key (no code updates
// lab_id, created_at or id). Item by item (where an item goes depends on the runs around it): per row on SQLite,
// in a loop over the statement's rows on PostgreSQL (postgresTriggers says why).
//
// - Insert: the run holding the item's key grows by one; when there is none (the item sorts before the lab's first
//   run) or it is full (PAGE_MARK_RUN items), a new run starts at the item and takes the items after it up to the
//   next run's key (none when the item is the lab's last, the usual case: items are created in key order). A run
//   therefore holds at most PAGE_MARK_RUN + 1 items, and a page skips at most that many index entries.
// - Delete: its run shrinks by one, and goes when empty (no run ever starts before the lab's first item).
//
// PostgreSQL: the lab's runs are changed under a transaction-level advisory lock on the lab, so that two
// transactions adding items to one lab cannot each decide from runs the other is changing (READ COMMITTED: each
// statement after the lock sees what the other committed).

/** Items a run holds before it is split; ~√(items of a large lab): a page reads ~n/200 runs and skips < 200 entries. */
export const PAGE_MARK_RUN = 200;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema
    .createTable('inventory_page_marks')
    .addColumn('lab_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_page_marks_pkey', ['lab_id', 'created_at', 'item_id']);
  // SQLite: the rows in the primary key's b-tree itself, which is the order a page reads them in.
  await (postgres ? table : table.modifyEnd(sql`without rowid`)).execute();
  // Every lab's items cut into runs of PAGE_MARK_RUN in the list's order.
  await sql`insert into inventory_page_marks (lab_id, created_at, item_id, items)
    select lab_id, created_at, id, case when n - rn + 1 < ${sql.lit(PAGE_MARK_RUN)} then n - rn + 1 else ${sql.lit(PAGE_MARK_RUN)} end
    from (select lab_id, created_at, id, row_number() over (partition by lab_id order by created_at, id) as rn,
            count(*) over (partition by lab_id) as n
          from inventory_items) numbered
    where (rn - 1) % ${sql.lit(PAGE_MARK_RUN)} = 0`.execute(db);
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/**
 * PostgreSQL fires row triggers after the whole statement, when every row of a multi-row insert is already in the
 * table: the counts would include rows not yet placed. So one trigger per statement places the new rows one by
 * one in the list's order; the rows of the statement after the one being placed are left out of its count.
 */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function inventory_page_marks_added() returns trigger language plpgsql as $$
    declare
      lab text;
      item record;
      run record;
      next_run record;
      has_run boolean;
      after_it bigint;
    begin
      for lab in select distinct lab_id from added order by lab_id loop
        perform pg_advisory_xact_lock(hashtextextended('inventory_page_marks ' || lab, 0));
      end loop;
      for item in select lab_id, created_at, id from added order by lab_id, created_at, id loop
        select m.created_at, m.item_id, m.items into run from inventory_page_marks m
          where m.lab_id = item.lab_id and (m.created_at, m.item_id) <= (item.created_at, item.id)
          order by m.created_at desc, m.item_id desc limit 1;
        has_run := found;
        if has_run and run.items < ${sql.lit(PAGE_MARK_RUN)} then
          update inventory_page_marks set items = items + 1
            where lab_id = item.lab_id and created_at = run.created_at and item_id = run.item_id;
          continue;
        end if;
        -- A new run from this item to the next run's key, with the items it takes from the run it splits.
        select m.created_at, m.item_id into next_run from inventory_page_marks m
          where m.lab_id = item.lab_id and (m.created_at, m.item_id) > (item.created_at, item.id)
          order by m.created_at, m.item_id limit 1;
        if found then
          select count(*) into after_it from inventory_items i
            where i.lab_id = item.lab_id and (i.created_at, i.id) > (item.created_at, item.id)
              and (i.created_at, i.id) < (next_run.created_at, next_run.item_id);
          select after_it - count(*) into after_it from added a
            where a.lab_id = item.lab_id and (a.created_at, a.id) > (item.created_at, item.id)
              and (a.created_at, a.id) < (next_run.created_at, next_run.item_id);
        else
          select count(*) into after_it from inventory_items i
            where i.lab_id = item.lab_id and (i.created_at, i.id) > (item.created_at, item.id);
          select after_it - count(*) into after_it from added a
            where a.lab_id = item.lab_id and (a.created_at, a.id) > (item.created_at, item.id);
        end if;
        insert into inventory_page_marks (lab_id, created_at, item_id, items) values (item.lab_id, item.created_at, item.id, after_it + 1);
        if has_run and after_it > 0 then
          update inventory_page_marks set items = items - after_it
            where lab_id = item.lab_id and created_at = run.created_at and item_id = run.item_id;
        end if;
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create function inventory_page_marks_removed() returns trigger language plpgsql as $$
    declare
      lab text;
      item record;
      run record;
    begin
      for lab in select distinct lab_id from removed order by lab_id loop
        perform pg_advisory_xact_lock(hashtextextended('inventory_page_marks ' || lab, 0));
      end loop;
      for item in select lab_id, created_at, id from removed loop
        select m.created_at, m.item_id, m.items into run from inventory_page_marks m
          where m.lab_id = item.lab_id and (m.created_at, m.item_id) <= (item.created_at, item.id)
          order by m.created_at desc, m.item_id desc limit 1;
        if run.items > 1 then
          update inventory_page_marks set items = items - 1
            where lab_id = item.lab_id and created_at = run.created_at and item_id = run.item_id;
        else
          delete from inventory_page_marks where lab_id = item.lab_id and created_at = run.created_at and item_id = run.item_id;
        end if;
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create trigger inventory_page_marks_ai after insert on inventory_items
    referencing new table as added for each statement execute function inventory_page_marks_added()`.execute(db);
  await sql`create trigger inventory_page_marks_ad after delete on inventory_items
    referencing old table as removed for each statement execute function inventory_page_marks_removed()`.execute(db);
}

/** SQLite has no variables in triggers: the run holding a key is a subquery, asked again after each step. */
async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const runOf = (row: 'new' | 'old') => sql.raw(`(select m.items from inventory_page_marks m
    where m.lab_id = ${row}.lab_id and (m.created_at, m.item_id) <= (${row}.created_at, ${row}.id)
    order by m.created_at desc, m.item_id desc limit 1)`);
  const keyOfRunBefore = (row: 'new' | 'old', strictly: boolean) => sql.raw(`(select m.created_at, m.item_id from inventory_page_marks m
    where m.lab_id = ${row}.lab_id and (m.created_at, m.item_id) ${strictly ? '<' : '<='} (${row}.created_at, ${row}.id)
    order by m.created_at desc, m.item_id desc limit 1)`);
  const keyOfRunAfter = sql.raw(`(select m.created_at, m.item_id from inventory_page_marks m
    where m.lab_id = new.lab_id and (m.created_at, m.item_id) > (new.created_at, new.id)
    order by m.created_at, m.item_id limit 1)`);
  const full = sql.lit(PAGE_MARK_RUN);
  // 1. A new run at the item when none holds it or the one that does is full, with the items after it up to the
  //    next run's key (two statements: with a next run, and without one, to the lab's end; each an index range).
  // 2. The run it split gives those items up (the new run now holds the item's key, so 2 looks strictly before it).
  // 3. Otherwise the run holding it grows by one.
  await sql`create trigger inventory_page_marks_ai after insert on inventory_items begin
    insert into inventory_page_marks (lab_id, created_at, item_id, items)
      select new.lab_id, new.created_at, new.id, 1 + (select count(*) from inventory_items i
          where i.lab_id = new.lab_id and (i.created_at, i.id) > (new.created_at, new.id)
            and (i.created_at, i.id) < ${keyOfRunAfter})
      where coalesce(${runOf('new')}, ${full}) >= ${full} and exists ${keyOfRunAfter};
    insert into inventory_page_marks (lab_id, created_at, item_id, items)
      select new.lab_id, new.created_at, new.id, 1 + (select count(*) from inventory_items i
          where i.lab_id = new.lab_id and (i.created_at, i.id) > (new.created_at, new.id))
      where coalesce(${runOf('new')}, ${full}) >= ${full} and not exists ${keyOfRunAfter};
    update inventory_page_marks set items = items - (select m.items - 1 from inventory_page_marks m
        where m.lab_id = new.lab_id and m.created_at = new.created_at and m.item_id = new.id)
      where lab_id = new.lab_id and (created_at, item_id) = ${keyOfRunBefore('new', true)}
        and exists (select 1 from inventory_page_marks m where m.lab_id = new.lab_id and m.created_at = new.created_at and m.item_id = new.id);
    update inventory_page_marks set items = items + 1
      where lab_id = new.lab_id and (created_at, item_id) = ${keyOfRunBefore('new', false)}
        and not (created_at = new.created_at and item_id = new.id);
  end`.execute(db);
  await sql`create trigger inventory_page_marks_ad after delete on inventory_items begin
    update inventory_page_marks set items = items - 1 where lab_id = old.lab_id and (created_at, item_id) = ${keyOfRunBefore('old', false)};
    delete from inventory_page_marks where lab_id = old.lab_id and items <= 0 and (created_at, item_id) = ${keyOfRunBefore('old', false)};
  end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
