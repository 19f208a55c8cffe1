import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { asDownload } from '../shared/download.js';
import { ref, responses } from '../shared/schemas.js';
import type { CodeView } from './describe.js';
import { withHazards } from './hazards.js';
import { LAYOUT_NAMES, LAYOUTS, layoutSummary } from './layouts.js';
import { renderLabelsPdf } from './pdf.js';
import { CODE_LENGTH } from './rules.js';
import { CodesQuery, LabelCode, LabelLayout, LabelsBody } from './schemas.js';
import { codesOf, resolveCode, selectLabels } from './service.js';
import { renderLabelsZpl } from './zpl.js';

// Label codes and label sheets (docs/labels.md): application endpoints beside the contract's, for the web
// application, the scan page and any ELN that prints.

/** What a label encodes: the page of its code, so a phone's camera app opens it (docs/labels.md). */
export const labelUrl = (appUrl: string, code: string) => `${appUrl}/app/c/${code}`;

export const labelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const appUrl = app.deps.config.appUrl;
  const withUrl = (v: CodeView) => ({ ...v, label_url: labelUrl(appUrl, v.code) });

  app.get(
    '/codes/:code',
    {
      schema: {
        operationId: 'resolveLabelCode',
        tags: ['Labels'],
        summary: 'What a label code is',
        description:
          'The container, location or legacy item behind a scanned code, with its page. Case and spaces or dashes do not matter. ' +
          'A code of another organization, of a lab the caller is not in, of a deleted thing, or no code at all: 404 not_found.',
        params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64, examples: ['K7QX2M9RTA'] }) }),
        response: responses({ 200: ref(LabelCode) }, [401, 404]),
      },
    },
    async (request) => withUrl(await resolveCode(app.deps.db, request.actor, request.params.code)),
  );

  app.get(
    '/codes',
    {
      schema: {
        operationId: 'listLabelCodes',
        tags: ['Labels'],
        summary: 'The codes of a container, a location or an item',
        description:
          'Exactly one of instance_id, location_id or item_id. For an item: its own code (a lab that does not use instances) and those ' +
          'of its containers on the shelf. A thing the caller does not see: 404.',
        querystring: CodesQuery,
        response: responses({ 200: Type.Array(ref(LabelCode)) }, [401, 404, 422]),
      },
    },
    async (request) => (await codesOf(app.deps.db, request.actor, request.query)).map(withUrl),
  );

  app.get(
    '/labels/layouts',
    {
      schema: {
        operationId: 'listLabelLayouts',
        tags: ['Labels'],
        summary: 'The label stocks labels print on',
        response: responses({ 200: Type.Array(ref(LabelLayout)) }, [401]),
      },
    },
    async () => LAYOUT_NAMES.map((n) => layoutSummary(LAYOUTS[n])),
  );

  app.post(
    '/labels',
    {
      // Printing changes nothing: a second send prints again, and the file is not worth keeping for a replay.
      config: { idempotency: false },
      schema: {
        operationId: 'printLabels',
        tags: ['Labels'],
        summary: 'Print labels (PDF or ZPL)',
        description:
          'Labels for the containers, items and locations chosen, what is stored at a location (and below), or what arrived since a time; ' +
          `each with a QR code of APP_URL/app/c/{code} (a DataMatrix of the ${CODE_LENGTH}-character code on cryo labels), a Code 128 ` +
          "of the code where it fits, the name, lot, expiry, location and lab, and a reagent's GHS pictograms and signal word (not on cryo labels). At most 3000 labels. Any id the caller does not see: 404.",
        body: LabelsBody,
        response: {
          200: {
            description: 'The labels, as an attachment: application/pdf, or text/plain ZPL II (one ^XA…^XZ per label).',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'text/plain': { schema: { type: 'string' } } },
          },
          ...responses({}, [400, 401, 404, 413, 415, 422]),
        },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const views = await withHazards(app.deps.db, (await selectLabels(app.deps.db, request.actor, b)).map(withUrl));
      const layout = LAYOUTS[b.layout];
      const stamp = new Date().toISOString().slice(0, 10);
      const name = `labels-${b.layout}-${stamp}.${b.format === 'pdf' ? 'pdf' : 'zpl'}`;
      if (b.format === 'zpl') return asDownload(reply, 'text/plain; charset=utf-8', name).send(renderLabelsZpl(layout, views));
      // The 200's schema is a binary string for the document; the bytes go out as they are.
      const pdf = Buffer.from(await renderLabelsPdf(layout, views, b.skip ?? 0));
      return asDownload(reply, 'application/pdf', name).send(pdf as unknown as string);
    },
  );
};
