import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { reconciliationRoutes } from './reconciliation-routes.js';
import { ControlledItem, ControlledListQuery, CorrectionBody, LedgerEntry, MarkBody, UnmarkBody, WaitingQuery } from './schemas.js';
import {
  addCorrection,
  getControlled,
  listControlled,
  listLedger,
  listWaiting,
  markControlled,
  unmarkControlled,
  witnessEntry,
} from './service.js';

// Controlled substances (docs/controlled-substances.md, docs/product.md §14): application endpoints of their own; the
// contract's item is untouched. POST and PUT honour Idempotency-Key as every write does (src/server/idempotency.ts).

const tags = ['Controlled substances'];
const ItemParams = Type.Object({ itemId: Uuid });
const EntryParams = Type.Object({ entryId: Uuid });

export const controlledRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(reconciliationRoutes);

  app.get(
    '/controlled-items',
    {
      schema: {
        operationId: 'listControlledItems',
        tags,
        summary: 'Controlled substances in the labs the caller sees',
        description:
          'By item name, each with its schedule, ledger balance and the entries waiting for a witness. `item_id` asks whether one item is controlled ([] when not).',
        querystring: Type.Object({ ...ControlledListQuery.properties, ...PageQuery }),
        response: responses({ 200: Type.Array(ref(ControlledItem)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { lab_id, item_id } = request.query;
      const { total, items } = await listControlled(app.deps, request.actor, { labId: lab_id, itemId: item_id }, page);
      setPageHeaders(request, reply, page, total);
      return items;
    },
  );

  app.get(
    '/controlled-items/:itemId',
    {
      schema: {
        operationId: 'getControlledItem',
        tags,
        summary: "An item's controlled-substance record",
        description: 'Its schedule, balance and how many entries wait for a witness. 404 when the item is not controlled or not seen.',
        params: ItemParams,
        response: responses({ 200: ref(ControlledItem) }, [401, 404, 422]),
      },
    },
    async (request) => getControlled(app.deps, request.actor, request.params.itemId),
  );

  app.put(
    '/controlled-items/:itemId',
    {
      schema: {
        operationId: 'markControlledItem',
        tags,
        summary: 'Mark an item as a controlled substance',
        description:
          "With its schedule (free text in the words of its jurisdiction). The first time (201) its ledger opens with the amount the inventory records; again (200) it changes the schedule. Org admins and the lab's managers (403 otherwise).",
        params: ItemParams,
        body: MarkBody,
        response: responses({ 200: ref(ControlledItem), 201: ref(ControlledItem) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { created, view } = await markControlled(app.deps, request.actor, request.params.itemId, request.body);
      if (created) reply.code(201).header('Location', `/controlled-items/${view.item_id}`);
      return view;
    },
  );

  app.post(
    '/controlled-items/:itemId/unmark',
    {
      schema: {
        operationId: 'unmarkControlledItem',
        tags,
        summary: 'No longer a controlled substance',
        description:
          "With the reason, which a closing entry records (answered): it ends the ledger, which stays readable. Org admins and the lab's managers (403 otherwise); 404 when the item is not controlled.",
        params: ItemParams,
        body: UnmarkBody,
        response: responses({ 200: ref(LedgerEntry) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => unmarkControlled(app.deps, request.actor, request.params.itemId, request.body),
  );

  app.get(
    '/controlled-items/:itemId/ledger',
    {
      schema: {
        operationId: 'listControlledLedger',
        tags,
        summary: "An item's controlled-substance ledger",
        description:
          'Every entry, oldest first, with who made it, its witness and the running balance. Entries are never changed or removed.',
        params: ItemParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(LedgerEntry)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, entries } = await listLedger(app.deps, request.actor, request.params.itemId, page);
      setPageHeaders(request, reply, page, total);
      return entries;
    },
  );

  app.post(
    '/controlled-items/:itemId/corrections',
    {
      schema: {
        operationId: 'addControlledCorrection',
        tags,
        summary: 'Correct a ledger entry',
        description:
          'A new entry that names the one it corrects (which stays as it was) and adds `change` to the balance; it waits for a witness like every entry. For anyone who sees the lab.',
        params: ItemParams,
        body: CorrectionBody,
        response: responses({ 201: ref(LedgerEntry) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const entry = await addCorrection(app.deps, request.actor, request.params.itemId, request.body);
      reply.code(201);
      return entry;
    },
  );

  app.get(
    '/controlled-entries',
    {
      schema: {
        operationId: 'listControlledEntriesWaiting',
        tags,
        summary: 'Ledger entries waiting for a witness',
        description:
          "In the labs the caller sees (or `lab_id`), oldest first, including the caller's own (which someone else must witness).",
        querystring: Type.Object({ ...WaitingQuery.properties, ...PageQuery }),
        response: responses({ 200: Type.Array(ref(LedgerEntry)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, entries } = await listWaiting(app.deps, request.actor, request.query.lab_id, page);
      setPageHeaders(request, reply, page, total);
      return entries;
    },
  );

  app.post(
    '/controlled-entries/:entryId/witness',
    {
      schema: {
        operationId: 'witnessControlledEntry',
        tags,
        summary: 'Witness a ledger entry',
        description:
          'The caller confirms the entry in their own session. Another person who sees the lab: the one who made it gets 403 self_witness; someone who does not see the lab, 404; an entry already witnessed, 409.',
        params: EntryParams,
        response: responses({ 200: ref(LedgerEntry) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request) => witnessEntry(app.deps, request.actor, request.params.entryId),
  );
};
