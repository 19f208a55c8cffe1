import { type Kysely, sql } from 'kysely';

// Types are chosen to mean the same on SQLite and PostgreSQL: text, integer and bigint only.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text' as const;
  const int = 'integer' as const;

  await db.schema.createTable('organizations')
    .addColumn('id', text, (c) => c.primaryKey()).addColumn('name', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull()).execute();

  await db.schema.createTable('users')
    .addColumn('id', text, (c) => c.primaryKey()).addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('first_name', text, (c) => c.notNull()).addColumn('last_name', text, (c) => c.notNull())
    .addColumn('is_operator', int, (c) => c.notNull().defaultTo(0)).addColumn('created_at', text, (c) => c.notNull()).execute();

  await db.schema.createTable('org_memberships')
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('role', text, (c) => c.notNull()).addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('org_memberships_pk', ['organization_id', 'user_id']).execute();

  await db.schema.createTable('labs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', text, (c) => c.notNull()).addColumn('uses_instances', int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('labs_org_idx').on('labs').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema.createTable('lab_memberships')
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('lab_memberships_pk', ['lab_id', 'user_id']).execute();
  await db.schema.createIndex('lab_memberships_user_idx').on('lab_memberships').columns(['user_id', 'lab_id']).execute();

  await db.schema.createTable('access_tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', text).addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('last_used_at', text).addColumn('revoked_at', text).execute();

  await db.schema.createTable('types')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('name', text, (c) => c.notNull()).addColumn('name_key', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('types_lab_name_idx').on('types').columns(['lab_id', 'name_key']).unique().execute();
  await db.schema.createIndex('types_order_idx').on('types').columns(['created_at', 'id']).execute();

  await db.schema.createTable('locations')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('parent_id', text, (c) => c.references('locations.id'))
    .addColumn('name', text, (c) => c.notNull()).addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('locations_parent_idx').on('locations').columns(['lab_id', 'parent_id', 'name']).execute();

  await db.schema.createTable('inventory_items')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('type_id', text, (c) => c.references('types.id'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('vendor', text).addColumn('catalog_number', text).addColumn('price', text).addColumn('unit_size', text)
    .addColumn('quantity', text, (c) => c.notNull().defaultTo('0'))
    .addColumn('url', text).addColumn('technical_details', text).addColumn('expiration_date', text)
    .addColumn('auto_reminder', text).addColumn('lot_number', text).addColumn('cas_number', text)
    .addColumn('vendor_product_id', text).addColumn('location_name', text).addColumn('sublocation_name', text)
    .addColumn('serial_number', text)
    .addColumn('added_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('version', int, (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('inventory_items_lab_idx').on('inventory_items').columns(['lab_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('inventory_items_order_idx').on('inventory_items').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('inventory_items_catalog_idx').on('inventory_items').columns(['lab_id', 'vendor', 'catalog_number']).execute();
  await db.schema.createIndex('inventory_items_type_idx').on('inventory_items').columns(['type_id']).execute();

  await db.schema.createTable('inventory_item_instances')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('item_id', text, (c) => c.notNull().references('inventory_items.id'))
    .addColumn('quantity', text, (c) => c.notNull())
    .addColumn('lot_number', text).addColumn('expiration_date', text)
    .addColumn('location_id', text, (c) => c.references('locations.id'))
    .addColumn('archived_at', text)
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('instances_item_idx').on('inventory_item_instances').columns(['item_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('instances_location_idx').on('inventory_item_instances').columns(['location_id']).execute();

  await db.schema.createTable('inventory_item_changes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('item_id', text, (c) => c.notNull()).addColumn('instance_id', text)
    .addColumn('user_id', text, (c) => c.notNull()).addColumn('field', text, (c) => c.notNull())
    .addColumn('old_value', text).addColumn('new_value', text).addColumn('note', text)
    .addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('item_changes_item_idx').on('inventory_item_changes').columns(['item_id', 'created_at']).execute();

  await db.schema.createTable('order_requests')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('type_id', text, (c) => c.notNull().references('types.id'))
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('item_name', text, (c) => c.notNull()).addColumn('vendor_name', text, (c) => c.notNull())
    .addColumn('catalog_number', text, (c) => c.notNull()).addColumn('vendor_product_id', text)
    .addColumn('quantity', text, (c) => c.notNull()).addColumn('unit_size', text)
    .addColumn('unit_price', text, (c) => c.notNull()).addColumn('currency', text, (c) => c.notNull())
    .addColumn('notes', text).addColumn('required_before', text)
    .addColumn('invoice_number', text).addColumn('requisition_number', text).addColumn('confirmation_number', text)
    .addColumn('tracking_number', text).addColumn('purchase_order_number', text).addColumn('shipping_and_handling', text)
    .addColumn('details', text).addColumn('spend_tracking_code', text).addColumn('backordered_expected_at', text)
    .addColumn('is_urgent', int, (c) => c.notNull().defaultTo(0))
    .addColumn('requested_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('requested_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('order_requests_lab_idx').on('order_requests').columns(['lab_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('order_requests_order_idx').on('order_requests').columns(['created_at', 'id']).execute();

  await db.schema.createTable('order_request_events')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('order_request_id', text, (c) => c.notNull().references('order_requests.id'))
    .addColumn('type', text, (c) => c.notNull()).addColumn('comment', text)
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('order_request_events_req_idx').on('order_request_events').columns(['order_request_id', 'created_at', 'id']).execute();

  await db.schema.createTable('vendor_products')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('item_name', text, (c) => c.notNull()).addColumn('catalog_number', text, (c) => c.notNull())
    .addColumn('vendor_name', text, (c) => c.notNull())
    .addColumn('unit_name', text, (c) => c.notNull()).addColumn('unit_symbol', text, (c) => c.notNull())
    .addColumn('unit_amount', text, (c) => c.notNull())
    .addColumn('price_amount', text, (c) => c.notNull()).addColumn('currency', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('vendor_products_catalog_idx').on('vendor_products').columns(['vendor_name', 'catalog_number']).unique().execute();

  await db.schema.createTable('sales_orders')
    .addColumn('id', text, (c) => c.primaryKey()).addColumn('key', text, (c) => c.notNull().unique())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('payment_method', text, (c) => c.notNull()).addColumn('purchase_order_number', text)
    .addColumn('is_test', int, (c) => c.notNull().defaultTo(0))
    .addColumn('shipping_amount', text, (c) => c.notNull()).addColumn('handling_amount', text, (c) => c.notNull())
    .addColumn('tax_amount', text, (c) => c.notNull()).addColumn('total_amount', text, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    .addColumn('placed_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull()).execute();

  await db.schema.createTable('sales_order_items')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('sales_order_id', text, (c) => c.notNull().references('sales_orders.id'))
    .addColumn('order_request_id', text, (c) => c.notNull().references('order_requests.id'))
    .addColumn('vendor_product_id', text, (c) => c.notNull().references('vendor_products.id'))
    .addColumn('status', text, (c) => c.notNull()).addColumn('quantity', int, (c) => c.notNull())
    .addColumn('sell_price_amount', text, (c) => c.notNull()).addColumn('currency', text, (c) => c.notNull())
    .addColumn('estimated_shipment_date', text).addColumn('estimated_delivery_date', text)
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('sales_order_items_order_idx').on('sales_order_items').columns(['sales_order_id']).execute();
  await db.schema.createIndex('sales_order_items_request_idx').on('sales_order_items').columns(['order_request_id']).execute();

  await db.schema.createTable('shipments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('sales_order_item_id', text, (c) => c.notNull().references('sales_order_items.id'))
    .addColumn('carrier', text, (c) => c.notNull()).addColumn('tracking', text, (c) => c.notNull())
    .addColumn('quantity', int, (c) => c.notNull()).addColumn('shipped_at', text, (c) => c.notNull())
    .addColumn('delivered_at', text).addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('shipments_item_idx').on('shipments').columns(['sales_order_item_id']).execute();

  await db.schema.createTable('webhooks')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('lab_id', text, (c) => c.references('labs.id'))
    .addColumn('name', text).addColumn('url', text, (c) => c.notNull())
    .addColumn('event_types', text, (c) => c.notNull())
    .addColumn('is_enabled', int, (c) => c.notNull()).addColumn('is_verified', int, (c) => c.notNull())
    .addColumn('is_signed', int, (c) => c.notNull()).addColumn('signing_key', text, (c) => c.notNull())
    .addColumn('previous_signing_key', text).addColumn('previous_key_expires_at', text)
    .addColumn('content_type', text, (c) => c.notNull().defaultTo('application/json'))
    .addColumn('disabled_reason', text)
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull()).addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('webhooks_org_idx').on('webhooks').columns(['organization_id', 'created_at', 'id']).execute();

  // The outbox: every event is inserted in the transaction of the change that caused it.
  await db.schema.createTable('events')
    .addColumn('id', text, (c) => c.primaryKey()).addColumn('type', text, (c) => c.notNull())
    .addColumn('organization_id', text, (c) => c.notNull()).addColumn('lab_id', text)
    .addColumn('payload', text, (c) => c.notNull()).addColumn('created_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('events_org_time_idx').on('events').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema.createTable('idempotency_keys')
    .addColumn('token_id', text, (c) => c.notNull()).addColumn('key', text, (c) => c.notNull())
    .addColumn('method', text, (c) => c.notNull()).addColumn('path', text, (c) => c.notNull())
    .addColumn('body_hash', text, (c) => c.notNull()).addColumn('status_code', int, (c) => c.notNull())
    .addColumn('response_body', text, (c) => c.notNull()).addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['token_id', 'key']).execute();
  void sql;
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
