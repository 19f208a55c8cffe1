import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { gs1Routes } from './gs1-routes.js';
import { historyRoutes } from './history-routes.js';
import { addItemInstance, archiveItemInstance, editItemInstance } from './instances.js';
import { createInventoryItem, deleteInventoryItem, editInventoryItem, getItemDocument, listItems } from './items.js';
import { minimumQuantityRoutes } from './minimum-routes.js';
import { putAwayRoutes } from './put-away-routes.js';
import { adjustQuantity, updateInstanceQuantity, updateItemQuantity } from './quantities.js';
import {
  AdjustmentBody,
  ArchiveBody,
  InstanceAddBody,
  InstanceEditBody,
  InstanceQuantityBody,
  InventoryItem,
  ItemCreateBody,
  ItemEditBody,
  ItemListQuery,
  ItemQuantityBody,
} from './schemas.js';
import { filterOf, orderOf } from './search/rules.js';

const IfMatch = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'ETag from a previous read; 412 if the item changed since.' })),
});

const ItemParams = Type.Object({ id: Uuid });
const JSON_TYPE = 'application/json; charset=utf-8';
const InstanceParams = Type.Object({ itemId: Uuid, itemInstanceId: Uuid });

export const inventoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/inventory-items',
    {
      schema: {
        operationId: 'listInventoryItems',
        tags: ['Inventory items'],
        summary: 'List inventory items',
        querystring: ItemListQuery,
        response: responses({ 200: Type.Array(ref(InventoryItem)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, exact, json } = await listItems(app.deps, request.actor, filterOf(request.query), orderOf(request.query.sort), page);
      setPageHeaders(request, reply, page, total, exact);
      // Stored documents joined as they are (src/inventory/stored/): a JSON text with that type is sent unserialized.
      return reply.type(JSON_TYPE).send(json);
    },
  );

  app.get(
    '/inventory-items/:id',
    {
      schema: {
        operationId: 'getInventoryItem',
        tags: ['Inventory items'],
        summary: 'Get inventory item',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(InventoryItem) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const { json, etag } = await getItemDocument(app.deps, request.actor, request.params.id);
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.put(
    '/inventory-items/:id',
    {
      // Deprecated by the 2026-06-17 changelog entry that introduced instances (headers: src/server/deprecation.ts).
      config: { deprecation: { since: '2026-06-17' } },
      schema: {
        operationId: 'updateInventoryItemQuantity',
        tags: ['Inventory items'],
        summary: 'Update inventory item quantity (deprecated)',
        description:
          'Legacy labs only (uses_instances false). In a migrated lab a quantity gives 409 lab_uses_instances: use the instance operation.',
        params: Type.Object({ id: Uuid }),
        headers: IfMatch,
        body: ItemQuantityBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await updateItemQuantity(
        app.deps,
        request.actor,
        request.params.id,
        request.body,
        request.headers['if-match'],
      );
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.put(
    '/inventory-items/:itemId/instances/:itemInstanceId',
    {
      schema: {
        operationId: 'updateInventoryItemInstanceQuantity',
        tags: ['Inventory items'],
        summary: 'Update inventory item instance quantity',
        description: 'Returns the full parent item, including the updated instances array.',
        params: Type.Object({ itemId: Uuid, itemInstanceId: Uuid }),
        headers: IfMatch,
        body: InstanceQuantityBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await updateInstanceQuantity(
        app.deps,
        request.actor,
        request.params.itemId,
        request.params.itemInstanceId,
        request.body,
        request.headers['if-match'],
      );
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  // Application operations (docs/product.md §5) beyond the contract's list.
  app.post(
    '/inventory-items',
    {
      schema: {
        operationId: 'createInventoryItem',
        tags: ['Inventory items'],
        summary: 'Create inventory item',
        description:
          'Legacy lab: quantity, lot_number, expiration_date, location and sublocation on the item. Lab that uses instances: give instances instead (those fields are 422). Emits inventory-item.created.',
        body: ItemCreateBody,
        response: responses({ 201: ref(InventoryItem) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { item, etag, json } = await createInventoryItem(app.deps, request.actor, request.body);
      return reply.code(201).header('ETag', etag).header('Location', `/inventory-items/${item.id}`).type(JSON_TYPE).send(json);
    },
  );

  app.patch(
    '/inventory-items/:id',
    {
      schema: {
        operationId: 'updateInventoryItem',
        tags: ['Inventory items'],
        summary: 'Edit inventory item',
        description: 'Changes the fields given. Emits inventory-item.updated when anything changed.',
        params: ItemParams,
        headers: IfMatch,
        body: ItemEditBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await editInventoryItem(app.deps, request.actor, request.params.id, request.body, request.headers['if-match']);
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.delete(
    '/inventory-items/:id',
    {
      schema: {
        operationId: 'deleteInventoryItem',
        tags: ['Inventory items'],
        summary: 'Delete inventory item',
        description: 'Emits inventory-item.deleted with its last state.',
        params: ItemParams,
        headers: IfMatch,
        response: responses({ 204: Type.Null() }, [401, 404, 409, 412, 422]),
      },
    },
    async (request, reply) => {
      await deleteInventoryItem(app.deps, request.actor, request.params.id, request.headers['if-match']);
      return reply.code(204).send();
    },
  );

  app.post(
    '/inventory-items/:id/instances',
    {
      schema: {
        operationId: 'createInventoryItemInstance',
        tags: ['Inventory items'],
        summary: 'Add an instance',
        description: 'Labs that use instances only (409 otherwise). Returns the full item. `identifiers`: docs/scanning.md.',
        params: ItemParams,
        headers: IfMatch,
        body: InstanceAddBody,
        response: responses({ 201: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await addItemInstance(app.deps, request.actor, request.params.id, request.body, request.headers['if-match']);
      return reply.code(201).header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.patch(
    '/inventory-items/:itemId/instances/:itemInstanceId',
    {
      schema: {
        operationId: 'updateInventoryItemInstance',
        tags: ['Inventory items'],
        summary: 'Edit an instance',
        description: 'Quantity, lot, expiry or location. Returns the full item.',
        params: InstanceParams,
        headers: IfMatch,
        body: InstanceEditBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await editItemInstance(
        app.deps,
        request.actor,
        request.params.itemId,
        request.params.itemInstanceId,
        request.body,
        request.headers['if-match'],
      );
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.post(
    '/inventory-items/:itemId/instances/:itemInstanceId/archive',
    {
      schema: {
        operationId: 'archiveInventoryItemInstance',
        tags: ['Inventory items'],
        summary: 'Archive an instance',
        description:
          "It leaves the item's instances and quantity for good. An optional reason (used up, expired, broken) goes into the item's history. Returns the full item.",
        params: InstanceParams,
        headers: IfMatch,
        body: ArchiveBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
      // The body is optional: a client that archived without one keeps working.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { etag, json } = await archiveItemInstance(
        app.deps,
        request.actor,
        request.params.itemId,
        request.params.itemInstanceId,
        request.headers['if-match'],
        request.body.reason ?? null,
      );
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  app.post(
    '/inventory-items/:id/adjustments',
    {
      schema: {
        operationId: 'adjustInventoryItemQuantity',
        tags: ['Inventory items'],
        summary: 'Adjust the quantity',
        description:
          'Adds delta (negative to take away) to the current quantity, atomically; 409 if it would go below zero. In a lab that uses instances, instance_id names the instance.',
        params: ItemParams,
        body: AdjustmentBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { etag, json } = await adjustQuantity(app.deps, request.actor, request.params.id, request.body);
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );

  await app.register(historyRoutes);
  await app.register(minimumQuantityRoutes);
  await app.register(putAwayRoutes);
  await app.register(gs1Routes);
};
