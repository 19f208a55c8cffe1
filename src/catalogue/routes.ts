import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { VendorProduct } from './schemas.js';
import { getProduct, listProducts } from './service.js';

// The catalogue keeps the shop's paths (/shop/products…) and tag: to a client it is part of the shop. The server
// registers it just before the shop's routes (src/server/app.ts), so /openapi.json lists them in the same order.

export const catalogueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/shop/products',
    {
      schema: {
        operationId: 'listShopProducts',
        tags: ['Shop'],
        summary: 'List or search shop products',
        querystring: Type.Object({
          q: Type.Optional(
            Type.String({
              maxLength: 200,
              description: 'Words that must all appear in the name, catalog number or vendor (case-insensitive).',
            }),
          ),
          vendor: Type.Optional(Type.String({ maxLength: 500, description: 'Only this vendor (exact).' })),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(VendorProduct)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, products } = await listProducts(app.deps, { q: request.query.q, vendor: request.query.vendor }, page);
      setPageHeaders(request, reply, page, total);
      return products;
    },
  );

  app.get(
    '/shop/products/:id',
    {
      schema: {
        operationId: 'getShopProduct',
        tags: ['Shop'],
        summary: 'Get a shop product',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(VendorProduct) }, [401, 404, 422]),
      },
    },
    async (request) => getProduct(app.deps, request.params.id),
  );
};
