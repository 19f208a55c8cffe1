import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { asDownload } from '../../shared/download.js';
import { ref, responses, Uuid } from '../../shared/schemas.js';
import { reportCsv, reportPdf } from './files.js';
import { HazardReport, HazardReportQuery } from './schemas.js';
import { hazardReport } from './service.js';

// GET /labs/{id}/hazard-report (docs/hazard-reports.md): JSON, CSV or PDF of one report.

/** format= wins; without it the Accept header may ask for CSV or PDF; JSON otherwise. */
function formatOf(format: string | undefined, accept: string | undefined): 'json' | 'csv' | 'pdf' {
  if (format === 'csv' || format === 'pdf' || format === 'json') return format;
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/csv')) return 'csv';
  if (a.includes('application/pdf')) return 'pdf';
  return 'json';
}

export const hazardReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/labs/:id/hazard-report',
    {
      schema: {
        operationId: 'getLabHazardReport',
        tags: ['Inventory items'],
        summary: "A lab's hazard inventory, per location, building or control area",
        description:
          'For the safety office: each hazard class with its containers and their amounts summed per unit family (containers whose size cannot be read are listed as unknown, never guessed), and for control areas their limits. A building is a top-level location. As JSON, CSV (format=csv or Accept: text/csv) or PDF (format=pdf or Accept: application/pdf). For anyone who sees the lab; otherwise 404.',
        params: Type.Object({ id: Uuid }),
        querystring: HazardReportQuery,
        response: {
          200: {
            description: 'The report',
            content: {
              'application/json': { schema: ref(HazardReport) },
              'text/csv': { schema: { type: 'string' } },
              'application/pdf': { schema: { type: 'string', format: 'binary' } },
            },
          },
          ...responses({}, [401, 404, 422]),
        },
      },
    },
    async (request, reply) => {
      const report = await hazardReport(app.deps, request.actor, request.params.id, request.query);
      const format = formatOf(request.query.format, request.headers.accept);
      const name = `hazard-report-${report.lab.id}-${report.by}`;
      if (format === 'csv') return asDownload(reply, 'text/csv; charset=utf-8', `${name}.csv`).send(reportCsv(report));
      if (format === 'pdf')
        return asDownload(reply, 'application/pdf', `${name}.pdf`).send(Buffer.from(await reportPdf(report)) as unknown as string);
      return report;
    },
  );
};
