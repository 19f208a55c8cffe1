import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

// Issue 27, point 4: a page of items found without walking the index up to it (docs/decisions/0028-page-marks.md).
// The items of a scope (a lab: a lab's list; an organization: an org admin's list without lab_id), in the list's
// order (created_at, id), are cut into runs; each run is a row here: its scope, the key it starts at (inclusive, up
// to the next row's key) and how many items it holds. A page at OFFSET n sums the runs' counts up to n, seeks the
// index to that run's key, and skips fewer than a run. Scope ids are lab and organization ids (UUIDs: never equal).
//
// Kept exact by triggers on inventory_items, like inventory_lab_counts (0017), so that every insert and delete
// counts, whichever code path or bulk load wrote it; an item never changes its lab or its key (no code updates
// lab_id, created_at or id), nor a lab its organization. Item by item (where an item goes depends on the runs around
// it): per row on SQLite, in a loop over the statement's rows on PostgreSQL (postgresTriggers says why).
//
// - Insert: the run holding the item's key grows by one; when there is none (the item sorts before the scope's
//   first run) or it is full (PAGE_MARK_RUN items), a new run starts at the item and takes the items after it up to
//   the next run's key (none when the item is the scope's last, the usual case: items are created in key order). A
//   run therefore holds at most PAGE_MARK_RUN + 1 items, and a page skips at most that many of the scope's items.
// - Delete: its run shrinks by one, and goes when empty (no run ever starts before the scope's first item).
//
// PostgreSQL: a scope's runs are changed under a transaction-level advisory lock on the scope, so that two
// transactions adding items to one lab cannot each decide from runs the other is changing (READ COMMITTED: each
// statement after the lock sees what the other committed).

/**
 * Items a run holds before it is split. A page reads the scope's ~n/1,000 runs and skips < 1,000 index entries:
 * skipping an entry costs SQLite ~0.05 µs, reading a run as a row a few times that (docs/decisions/0028-page-marks.md).
 */
export const PAGE_MARK_RUN = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema
    .createTable('inventory_page_marks')
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_page_marks_pkey', ['scope_id', 'created_at', 'item_id']);
  // SQLite: the rows in the primary key's b-tree itself, which is the order a page reads them in.
  await (postgres ? table : table.modifyEnd(sql`without rowid`)).execute();
  // Every lab's and every organization's items cut into runs of PAGE_MARK_RUN in the list's order.
  for (const scope of [sql`inventory_items.lab_id`, sql`labs.organization_id`])
    await sql`insert into inventory_page_marks (scope_id, created_at, item_id, items)
      select scope_id, created_at, id, case when n - rn + 1 < ${sql.lit(PAGE_MARK_RUN)} then n - rn + 1 else ${sql.lit(PAGE_MARK_RUN)} end
      from (select ${scope} as scope_id, inventory_items.created_at, inventory_items.id,
              row_number() over (partition by ${scope} order by inventory_items.created_at, inventory_items.id) as rn,
              count(*) over (partition by ${scope}) as n
            from inventory_items join labs on labs.id = inventory_items.lab_id) numbered
      where (rn - 1) % ${sql.lit(PAGE_MARK_RUN)} = 0`.execute(db);
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/**
 * PostgreSQL fires row triggers after the whole statement, when every row of a multi-row insert is already in the
 * table: the counts would include rows not yet placed. So one trigger per statement places the statement's rows,
 * scope by scope: all at once when they all come after the scope's items (the usual case), else one by one in the
 * list's order, the statement's rows after the one being placed left out of its count.
 */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // The items after the one being placed, up to the next run's key (or the scope's end), that are in the table
  // and were placed before it: the scope's items less the statement's rows not yet placed. One form per scope, so
  // that each count is a range of that scope's own index ((lab_id, created_at, id), or (created_at, id, lab_id)).
  const counts = (inScope: (alias: string) => string) => {
    const between = (alias: string, bounded: boolean) =>
      sql.raw(`${inScope(alias)} and (${alias}.created_at, ${alias}.id) > (item.created_at, item.id)${
        bounded ? ` and (${alias}.created_at, ${alias}.id) < (next_run.created_at, next_run.item_id)` : ''
      }`);
    return sql`if found then
        select count(*) into after_it from inventory_items i where ${between('i', true)};
        select after_it - count(*) into after_it from added a where ${between('a', true)};
      else
        select count(*) into after_it from inventory_items i where ${between('i', false)};
        select after_it - count(*) into after_it from added a where ${between('a', false)};
      end if;`;
  };
  const ofLab = counts((alias) => `${alias}.lab_id = scope`);
  const ofOrg = counts((alias) => `${alias}.lab_id in (select l.id from labs l where l.organization_id = scope)`);
  // The statement's rows of the scope (a), in a query over the transition table (no index to use there).
  const addedInScope = sql.raw(`(case when is_org then a.lab_id in (select l.id from labs l where l.organization_id = scope)
    else a.lab_id = scope end)`);
  await sql`create function inventory_page_marks_added() returns trigger language plpgsql as $$
    declare
      scope text;
      is_org boolean;
      item record;
      run record;
      next_run record;
      has_run boolean;
      after_it bigint;
      appending boolean;
      n_new bigint;
      fill bigint;
    begin
      for scope in select s from (select lab_id as s from added union
          select l.organization_id from added join labs l on l.id = added.lab_id) scopes order by s loop
        perform pg_advisory_xact_lock(hashtextextended('inventory_page_marks ' || scope, 0));
      end loop;
      for scope, is_org in select s, o from (select distinct lab_id as s, false as o from added union
          select distinct l.organization_id, true from added join labs l on l.id = added.lab_id) scopes order by s loop
        -- The usual case, set-based: every row of the statement sorts after every item the scope had (a CSV import,
        -- a bulk load, items created now). They fill the last run, then start a run every PAGE_MARK_RUN rows.
        select a.created_at, a.id into item from added a where ${addedInScope} order by a.created_at, a.id limit 1;
        if is_org then
          select not exists (select 1 from inventory_items i
            where i.lab_id in (select l.id from labs l where l.organization_id = scope)
              and (i.created_at, i.id) > (item.created_at, item.id) and i.id not in (select a.id from added a)) into appending;
        else
          select not exists (select 1 from inventory_items i where i.lab_id = scope
              and (i.created_at, i.id) > (item.created_at, item.id) and i.id not in (select a.id from added a)) into appending;
        end if;
        if appending then
          select m.created_at, m.item_id, m.items into run from inventory_page_marks m
            where m.scope_id = scope order by m.created_at desc, m.item_id desc limit 1;
          has_run := found;
          select count(*) into n_new from added a where ${addedInScope};
          fill := case when has_run then least(greatest(${sql.lit(PAGE_MARK_RUN)} - run.items, 0), n_new) else 0 end;
          if fill > 0 then
            update inventory_page_marks set items = items + fill
              where scope_id = scope and created_at = run.created_at and item_id = run.item_id;
          end if;
          insert into inventory_page_marks (scope_id, created_at, item_id, items)
            select scope, created_at, id, least(${sql.lit(PAGE_MARK_RUN)}, n_new - rn + 1)
            from (select a.created_at, a.id, row_number() over (order by a.created_at, a.id) as rn
                  from added a where ${addedInScope}) numbered
            where rn > fill and (rn - fill - 1) % ${sql.lit(PAGE_MARK_RUN)} = 0;
          continue;
        end if;
        -- Otherwise row by row, in the list's order.
        for item in select a.created_at, a.id from added a where ${addedInScope} order by a.created_at, a.id loop
          select m.created_at, m.item_id, m.items into run from inventory_page_marks m
            where m.scope_id = scope and (m.created_at, m.item_id) <= (item.created_at, item.id)
            order by m.created_at desc, m.item_id desc limit 1;
          has_run := found;
          if has_run and run.items < ${sql.lit(PAGE_MARK_RUN)} then
            update inventory_page_marks set items = items + 1
              where scope_id = scope and created_at = run.created_at and item_id = run.item_id;
            continue;
          end if;
          -- A new run from this item to the next run's key, with the items it takes from the run it splits.
          select m.created_at, m.item_id into next_run from inventory_page_marks m
            where m.scope_id = scope and (m.created_at, m.item_id) > (item.created_at, item.id)
            order by m.created_at, m.item_id limit 1;
          if is_org then
            ${ofOrg}
          else
            ${ofLab}
          end if;
          insert into inventory_page_marks (scope_id, created_at, item_id, items) values (scope, item.created_at, item.id, after_it + 1);
          if has_run and after_it > 0 then
            update inventory_page_marks set items = items - after_it
              where scope_id = scope and created_at = run.created_at and item_id = run.item_id;
          end if;
        end loop;
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create function inventory_page_marks_removed() returns trigger language plpgsql as $$
    declare
      scope text;
      item record;
      run record;
    begin
      for scope in select s from (select lab_id as s from removed union
          select l.organization_id from removed join labs l on l.id = removed.lab_id) scopes order by s loop
        perform pg_advisory_xact_lock(hashtextextended('inventory_page_marks ' || scope, 0));
      end loop;
      for item in select r.lab_id, l.organization_id, r.created_at, r.id from removed r join labs l on l.id = r.lab_id loop
        foreach scope in array array[item.lab_id, item.organization_id] loop
          select m.created_at, m.item_id, m.items into run from inventory_page_marks m
            where m.scope_id = scope and (m.created_at, m.item_id) <= (item.created_at, item.id)
            order by m.created_at desc, m.item_id desc limit 1;
          if run.items > 1 then
            update inventory_page_marks set items = items - 1
              where scope_id = scope and created_at = run.created_at and item_id = run.item_id;
          else
            delete from inventory_page_marks where scope_id = scope and created_at = run.created_at and item_id = run.item_id;
          end if;
        end loop;
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create trigger inventory_page_marks_ai after insert on inventory_items
    referencing new table as added for each statement execute function inventory_page_marks_added()`.execute(db);
  await sql`create trigger inventory_page_marks_ad after delete on inventory_items
    referencing old table as removed for each statement execute function inventory_page_marks_removed()`.execute(db);
}

/**
 * SQLite has no variables in triggers: the run holding a key is a subquery, asked again after each step. The
 * statements of one scope: its id (`scope`) and which items are in it (`inScope`, of the alias i), for the row `row`.
 */
function sqliteSteps(row: 'new' | 'old', scope: RawBuilder<unknown>, inScope: RawBuilder<unknown>) {
  const key = sql.raw(`(${row}.created_at, ${row}.id)`);
  const runHolding = (column: string, strictly = false) =>
    sql`(select ${sql.raw(column)} from inventory_page_marks m where m.scope_id = ${scope}
      and (m.created_at, m.item_id) ${sql.raw(strictly ? '<' : '<=')} ${key} order by m.created_at desc, m.item_id desc limit 1)`;
  const runAfter = sql`(select m.created_at, m.item_id from inventory_page_marks m
    where m.scope_id = ${scope} and (m.created_at, m.item_id) > ${key} order by m.created_at, m.item_id limit 1)`;
  const ownRun = sql`m.scope_id = ${scope} and m.created_at = ${sql.raw(row)}.created_at and m.item_id = ${sql.raw(row)}.id`;
  const full = sql.lit(PAGE_MARK_RUN);
  if (row === 'old')
    return sql`update inventory_page_marks set items = items - 1
        where scope_id = ${scope} and (created_at, item_id) = ${runHolding('m.created_at, m.item_id')};
      delete from inventory_page_marks
        where scope_id = ${scope} and items <= 0 and (created_at, item_id) = ${runHolding('m.created_at, m.item_id')};`;
  // 1. A new run at the item when none holds it or the one that does is full, with the items after it up to the
  //    next run's key (two statements: with a next run, and without one, to the scope's end; each an index range).
  // 2. The run it split gives those items up (the new run now holds the item's key, so 2 looks strictly before it).
  // 3. Otherwise the run holding it grows by one.
  return sql`insert into inventory_page_marks (scope_id, created_at, item_id, items)
      select ${scope}, new.created_at, new.id, 1 + (select count(*) from inventory_items i
          where ${inScope} and (i.created_at, i.id) > ${key} and (i.created_at, i.id) < ${runAfter})
      where coalesce(${runHolding('m.items')}, ${full}) >= ${full} and exists ${runAfter};
    insert into inventory_page_marks (scope_id, created_at, item_id, items)
      select ${scope}, new.created_at, new.id, 1 + (select count(*) from inventory_items i where ${inScope} and (i.created_at, i.id) > ${key})
      where coalesce(${runHolding('m.items')}, ${full}) >= ${full} and not exists ${runAfter};
    update inventory_page_marks set items = items - (select m.items - 1 from inventory_page_marks m where ${ownRun})
      where scope_id = ${scope} and (created_at, item_id) = ${runHolding('m.created_at, m.item_id', true)}
        and exists (select 1 from inventory_page_marks m where ${ownRun});
    update inventory_page_marks set items = items + 1
      where scope_id = ${scope} and (created_at, item_id) = ${runHolding('m.created_at, m.item_id')}
        and not (created_at = new.created_at and item_id = new.id);`;
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  for (const row of ['new', 'old'] as const) {
    const lab = sql.raw(`${row}.lab_id`);
    const org = sql.raw(`(select organization_id from labs where id = ${row}.lab_id)`);
    const labSteps = sqliteSteps(row, lab, sql`i.lab_id = ${lab}`);
    const orgSteps = sqliteSteps(row, org, sql`i.lab_id in (select l.id from labs l where l.organization_id = ${org})`);
    const name = sql.raw(row === 'new' ? 'inventory_page_marks_ai after insert' : 'inventory_page_marks_ad after delete');
    await sql`create trigger ${name} on inventory_items begin ${labSteps} ${orgSteps} end`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
