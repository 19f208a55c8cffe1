import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { asDownload } from '../shared/download.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { applyStocktake } from './apply.js';
import { countItem, uncountItem } from './item-counts.js';
import { reportCsv, reportPdf } from './report.js';
import { ApplyBody, CountBody, ItemCountBody, ListQuery, StartBody, Stocktake, StocktakeLine, StocktakeWithLines } from './schemas.js';
import { cancelStocktake, countInstance, getStocktake, listStocktakes, startStocktake, uncountInstance } from './service.js';

// Stocktake (docs/stocktake.md, docs/product.md §14): additions on their own endpoints. POST and PUT honour
// Idempotency-Key as every write does (src/server/idempotency.ts).

const tags = ['Stocktake'];
const Params = Type.Object({ id: Uuid });
const CountParams = Type.Object({ id: Uuid, instanceId: Uuid });
const ItemParams = Type.Object({ id: Uuid, itemId: Uuid });

export const stocktakeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/stocktakes',
    {
      schema: {
        operationId: 'startStocktake',
        tags,
        summary: 'Start counting a location, or a lab without instances',
        description:
          'Starts a count of the location and everything below it (location_id, a lab that uses instances), or of every item of a lab that does not use instances (lab_id; 409 for a lab that uses them). An open count of the same location, or of the same lab, is answered instead (200), so two people starting it count one session. For anyone who sees the lab.',
        body: StartBody,
        response: responses({ 200: ref(StocktakeWithLines), 201: ref(StocktakeWithLines) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { view, created } = await startStocktake(app.deps, request.actor, request.body);
      if (created) reply.code(201).header('Location', `/stocktakes/${view.id}`);
      return view;
    },
  );

  app.get(
    '/stocktakes',
    {
      schema: {
        operationId: 'listStocktakes',
        tags,
        summary: 'Counts in the labs the caller sees',
        description: 'Newest first, each with its summary (not its lines). `status=open` lists the counts that can be resumed.',
        querystring: Type.Object({ ...ListQuery.properties, ...PageQuery }),
        response: responses({ 200: Type.Array(ref(Stocktake)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { lab_id, location_id, status } = request.query;
      const { total, stocktakes } = await listStocktakes(app.deps, request.actor, { labId: lab_id, locationId: location_id, status }, page);
      setPageHeaders(request, reply, page, total);
      return stocktakes;
    },
  );

  app.get(
    '/stocktakes/:id',
    {
      schema: {
        operationId: 'getStocktake',
        tags,
        summary: 'A count with its lines',
        description:
          'Every container stored in the subtree and every container counted, each missing, unexpected, different or as recorded. An applied or cancelled count keeps its lines as they stood then.',
        params: Params,
        response: responses({ 200: ref(StocktakeWithLines) }, [401, 404, 422]),
      },
    },
    async (request) => getStocktake(app.deps, request.actor, request.params.id),
  );

  app.put(
    '/stocktakes/:id/counts/:instanceId',
    {
      schema: {
        operationId: 'countStocktakeInstance',
        tags,
        summary: 'Count a container',
        description:
          "Records that the container (an instance of the count's lab) is there: ticked (no quantity), with the quantity counted, and where it was found when not where it is recorded. Counting it again replaces the count; two people count one session at once without losing each other's counts. 409 once the count is applied or cancelled.",
        params: CountParams,
        body: CountBody,
        response: responses({ 200: ref(StocktakeLine) }, [400, 401, 404, 409, 413, 415, 422]),
      },
      // No body is a tick, as {} is.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => countInstance(app.deps, request.actor, request.params.id, request.params.instanceId, request.body),
  );

  app.delete(
    '/stocktakes/:id/counts/:instanceId',
    {
      schema: {
        operationId: 'uncountStocktakeInstance',
        tags,
        summary: 'Take a count back',
        description: '404 when the container was not counted; 409 once the count is applied or cancelled.',
        params: CountParams,
        response: responses({ 204: Type.Null() }, [401, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      await uncountInstance(app.deps, request.actor, request.params.id, request.params.instanceId);
      return reply.code(204).send();
    },
  );

  app.put(
    '/stocktakes/:id/items/:itemId',
    {
      schema: {
        operationId: 'countStocktakeItem',
        tags,
        summary: 'Count an item (a lab without instances)',
        description:
          "In a count of a lab that does not use instances: records that the item is there, ticked (no quantity) or with the quantity counted. Counting it again replaces the count; two people count one session at once without losing each other's counts. 409 in a count of a location (count its containers), or once the count is applied or cancelled.",
        params: ItemParams,
        body: ItemCountBody,
        response: responses({ 200: ref(StocktakeLine) }, [400, 401, 404, 409, 413, 415, 422]),
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => countItem(app.deps, request.actor, request.params.id, request.params.itemId, request.body),
  );

  app.delete(
    '/stocktakes/:id/items/:itemId',
    {
      schema: {
        operationId: 'uncountStocktakeItem',
        tags,
        summary: "Take an item's count back",
        description: '404 when the item was not counted; 409 in a count of a location, or once the count is applied or cancelled.',
        params: ItemParams,
        response: responses({ 204: Type.Null() }, [401, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      await uncountItem(app.deps, request.actor, request.params.id, request.params.itemId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/stocktakes/:id/apply',
    {
      schema: {
        operationId: 'applyStocktake',
        tags,
        summary: 'Apply a count',
        description:
          "In one transaction: each counted container's (or, in a lab without instances, item's) quantity becomes what was counted (the difference from what was recorded when it was counted is added, so a use recorded since is kept), each container found elsewhere moves to where it was found, and with `missing: set_to_zero` each container or item not counted goes to 0. Each change is in the item's history with the count (stocktake_id) and emits inventory-item.updated, one per item. A count records what is there, so the lab's placement settings never refuse it: `placement_findings` lists what the count put where (a container found beside an incompatible one, a control area over its limit), as POST /placement-checks would. 409 when already applied or cancelled; a retry with the same Idempotency-Key answers the first response.",
        params: Params,
        body: ApplyBody,
        response: responses({ 200: ref(StocktakeWithLines) }, [400, 401, 404, 409, 413, 415, 422]),
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => applyStocktake(app.deps, request.actor, request.params.id, request.body),
  );

  app.post(
    '/stocktakes/:id/cancel',
    {
      schema: {
        operationId: 'cancelStocktake',
        tags,
        summary: 'Cancel a count',
        description: 'Nothing is applied; the count and its report stay readable. 409 when already applied or cancelled.',
        params: Params,
        response: responses({ 200: ref(StocktakeWithLines) }, [401, 404, 409, 422]),
      },
    },
    async (request) => cancelStocktake(app.deps, request.actor, request.params.id),
  );

  app.get(
    '/stocktakes/:id/report.csv',
    {
      schema: {
        operationId: 'getStocktakeReportCsv',
        tags,
        summary: "A count's report as CSV",
        description: 'One row per line with its state (missing, unexpected, different, matching); UTF-8, RFC 4180, CRLF line breaks.',
        params: Params,
        response: {
          200: { description: 'The CSV file', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...responses({}, [401, 404, 422]),
        },
      },
    },
    async (request, reply) => {
      const view = await getStocktake(app.deps, request.actor, request.params.id);
      return asDownload(reply, 'text/csv; charset=utf-8', `stocktake-${view.id}.csv`).send(reportCsv(view));
    },
  );

  app.get(
    '/stocktakes/:id/report.pdf',
    {
      schema: {
        operationId: 'getStocktakeReportPdf',
        tags,
        summary: "A count's report as PDF",
        description: 'The summary, then the missing, unexpected, different and matching containers (A4).',
        params: Params,
        response: {
          200: { description: 'The PDF file', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          ...responses({}, [401, 404, 422]),
        },
      },
    },
    async (request, reply) => {
      const view = await getStocktake(app.deps, request.actor, request.params.id);
      const pdf = Buffer.from(await reportPdf(view));
      return asDownload(reply, 'application/pdf', `stocktake-${view.id}.pdf`).send(pdf as unknown as string);
    },
  );
};
