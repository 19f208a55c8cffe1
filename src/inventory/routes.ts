import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { DecimalString, InventoryItem, responses, Uuid } from '../shared/schemas.js';
import { getItem, listItems, updateInstanceQuantity, updateItemQuantity } from './service.js';

const DEPRECATED_SINCE = '@1781654400';

const IfMatch = Type.Object({ 'if-match': Type.Optional(Type.String({ description: 'ETag from a previous read; 412 if the item changed since.' })) });

export const inventoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/inventory-items', {
    schema: {
      tags: ['Inventory items'], summary: 'List inventory items',
      querystring: Type.Object({ lab_id: Type.Optional(Type.String({ description: 'Only items of this lab.' })), ...PageQuery }),
      response: responses({ 200: Type.Array(InventoryItem) }, [401, 422]),
    },
  }, async (request, reply) => {
    const page = pageOf(request.query);
    const { total, items } = await listItems(app.deps, request.actor, { labId: request.query.lab_id }, page);
    setPageHeaders(request, reply, page, total);
    return items;
  });

  app.get('/inventory-items/:id', {
    schema: {
      tags: ['Inventory items'], summary: 'Get inventory item',
      params: Type.Object({ id: Uuid }),
      response: responses({ 200: InventoryItem }, [401, 404, 422]),
    },
  }, async (request, reply) => {
    const { item, etag } = await getItem(app.deps, request.actor, request.params.id);
    reply.header('ETag', etag);
    return item;
  });

  app.put('/inventory-items/:id', {
    schema: {
      tags: ['Inventory items'], summary: 'Update inventory item quantity (deprecated)', deprecated: true,
      description: 'Legacy labs only (uses_instances false). In a migrated lab a quantity gives 409 lab_uses_instances: use the instance operation.',
      params: Type.Object({ id: Uuid }),
      headers: IfMatch,
      body: Type.Object({ quantity: Type.Optional(DecimalString) }, { additionalProperties: false }),
      response: responses({ 200: InventoryItem }, [400, 401, 404, 409, 412, 413, 415, 422]),
    },
  }, async (request, reply) => {
    // RFC 9745: deprecated since the 2026-06-17 changelog entry that introduced instances.
    reply.header('Deprecation', DEPRECATED_SINCE);
    const { item, etag } = await updateItemQuantity(app.deps, request.actor, request.params.id, request.body, request.headers['if-match']);
    reply.header('ETag', etag);
    return item;
  });

  app.put('/inventory-items/:itemId/instances/:itemInstanceId', {
    schema: {
      tags: ['Inventory items'], summary: 'Update inventory item instance quantity',
      description: 'Returns the full parent item, including the updated instances array.',
      params: Type.Object({ itemId: Uuid, itemInstanceId: Uuid }),
      headers: IfMatch,
      body: Type.Object({ quantity: DecimalString }, { additionalProperties: false }),
      response: responses({ 200: InventoryItem }, [400, 401, 404, 412, 413, 415, 422]),
    },
  }, async (request, reply) => {
    const { item, etag } = await updateInstanceQuantity(app.deps, request.actor, request.params.itemId, request.params.itemInstanceId, request.body, request.headers['if-match']);
    reply.header('ETag', etag);
    return item;
  });
};
