import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { asDownload } from '../shared/download.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { labReconciliation, periodReport, reconcile } from './reconciliation.js';
import { labReconciliationCsv, reconciliationCsv } from './report.js';
import { labPdf, periodPdf } from './report-pdf.js';
import { LabReconciliation, Reconciliation, ReconciliationPdfQuery, ReconciliationQuery } from './schemas.js';

// Reconciliation of the controlled-substance ledger against a count (docs/controlled-substances.md): one item as
// JSON, CSV and PDF (over a period), and every controlled item of a lab as JSON, CSV and PDF.

const tags = ['Controlled substances'];
const ItemParams = Type.Object({ itemId: Uuid });
const LabParams = Type.Object({ labId: Uuid });

const file = (type: string, description: string, format?: string) => ({
  200: { description, content: { [type]: { schema: { type: 'string', ...(format ? { format } : {}) } } } },
  ...responses({}, [401, 404, 422]),
});
const CSV = 'text/csv; charset=utf-8';
const pdfBody = (bytes: Uint8Array) => Buffer.from(bytes) as unknown as string;

export const reconciliationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/controlled-items/:itemId/reconciliation',
    {
      schema: {
        operationId: 'getControlledReconciliation',
        tags,
        summary: 'Reconcile the ledger against a count',
        description:
          'The ledger balance against `counted` (a quick physical count) or what the count session `stocktake_id` counted of the item: the difference, the amount the inventory records, and the entries no one has witnessed.',
        params: ItemParams,
        querystring: ReconciliationQuery,
        response: responses({ 200: ref(Reconciliation) }, [401, 404, 422]),
      },
    },
    async (request) => reconcile(app.deps, request.actor, request.params.itemId, request.query),
  );

  app.get(
    '/controlled-items/:itemId/reconciliation.csv',
    {
      schema: {
        operationId: 'getControlledReconciliationCsv',
        tags,
        summary: 'The reconciliation as CSV',
        description: 'The summary row, then the entries waiting for a witness; UTF-8, RFC 4180, CRLF line breaks.',
        params: ItemParams,
        querystring: ReconciliationQuery,
        response: file('text/csv', 'The CSV file'),
      },
    },
    async (request, reply) => {
      const r = await reconcile(app.deps, request.actor, request.params.itemId, request.query);
      return asDownload(reply, CSV, `reconciliation-${r.item_id}.csv`).send(reconciliationCsv(r));
    },
  );

  app.get(
    '/controlled-items/:itemId/reconciliation.pdf',
    {
      schema: {
        operationId: 'getControlledReconciliationPdf',
        tags,
        summary: 'The reconciliation over a period as PDF, for the registrant',
        description:
          "The item, its schedule, the period (`from`, `to`: UTC days, both included; by default from the ledger's first day to today), the balance it opened with, every entry in it (who, when, what, how much, the witness) with the running balance, the count (`counted` or `stocktake_id`, as for the JSON) and the difference, and lines to sign.",
        params: ItemParams,
        querystring: ReconciliationPdfQuery,
        response: file('application/pdf', 'The PDF file', 'binary'),
      },
    },
    async (request, reply) => {
      const r = await periodReport(app.deps, request.actor, request.params.itemId, request.query);
      return asDownload(reply, 'application/pdf', `reconciliation-${r.reconciliation.item_id}-${r.from}-${r.to}.pdf`).send(
        pdfBody(await periodPdf(r)),
      );
    },
  );

  app.get(
    '/labs/:labId/controlled-reconciliation',
    {
      schema: {
        operationId: 'getLabControlledReconciliation',
        tags,
        summary: 'Every controlled substance of a lab against its last count',
        description:
          'Each controlled item with its ledger balance, the amount the inventory records, its last count (what the latest count session, not cancelled, counted of its containers; null when never counted) and the difference (last count − ledger balance). For anyone who sees the lab; otherwise 404.',
        params: LabParams,
        response: responses({ 200: ref(LabReconciliation) }, [401, 404, 422]),
      },
    },
    async (request) => labReconciliation(app.deps, request.actor, request.params.labId),
  );

  app.get(
    '/labs/:labId/controlled-reconciliation.csv',
    {
      schema: {
        operationId: 'getLabControlledReconciliationCsv',
        tags,
        summary: "The lab's reconciliation as CSV",
        description: 'One row per controlled item; UTF-8, RFC 4180, CRLF line breaks.',
        params: LabParams,
        response: file('text/csv', 'The CSV file'),
      },
    },
    async (request, reply) => {
      const r = await labReconciliation(app.deps, request.actor, request.params.labId);
      return asDownload(reply, CSV, `controlled-reconciliation-${r.lab.id}.csv`).send(labReconciliationCsv(r));
    },
  );

  app.get(
    '/labs/:labId/controlled-reconciliation.pdf',
    {
      schema: {
        operationId: 'getLabControlledReconciliationPdf',
        tags,
        summary: "The lab's reconciliation as PDF",
        description: 'One row per controlled item, and lines to sign.',
        params: LabParams,
        response: file('application/pdf', 'The PDF file', 'binary'),
      },
    },
    async (request, reply) => {
      const r = await labReconciliation(app.deps, request.actor, request.params.labId);
      return asDownload(reply, 'application/pdf', `controlled-reconciliation-${r.lab.id}.pdf`).send(pdfBody(await labPdf(r)));
    },
  );
};
