import { dataKeysOf, fullEventType, type ShortEventType } from '../events/types.js';

// Examples for the document (src/server/openapi-document.ts): a request and a response for each of the contract's
// 17 public operations, and one delivered envelope per event kind. They are checked against the schemas they
// illustrate by Redocly's no-invalid-media-type-examples rule (test/lint/openapi.test.ts), so one that drifts from
// its schema fails a test. One small lab's data throughout, so the examples read as one story.

const id = (n: number) => `01936f0e-8d2a-7c4b-9e10-${String(n).padStart(12, '0')}`;
const organization = { id: id(1), name: 'Northwind University' };
const lab = { id: id(2), name: 'Protein Chemistry Lab', organization, uses_instances: true };
const legacyLab = { id: id(3), name: 'Cell Culture Lab', organization, uses_instances: false };
const ada = { id: id(4), first_name: 'Ada', last_name: 'Okafor', email: 'ada.okafor@example.org' };
const reagents = { id: id(5), name: 'Reagents' };

/**
 * The examples' own address, not APP_URL: the document's examples (and the client types generated with them,
 * client/src/generated/schema.ts) are then the same on every installation.
 */
const SITE = 'https://labstock.example.org';

function examples(vendor: string) {
  const appUrl = SITE;
  const instances = [
    {
      id: id(11),
      quantity: '2',
      lot_number: 'SLCD1234',
      expiration_date: '2027-03-31',
      location: { name: 'Shelf 2', pathNames: ['Building A', 'Room 101', 'Shelf 2'] },
    },
    { id: id(12), quantity: '1.5', lot_number: 'SLCF5678', expiration_date: '2027-09-30', location: null },
  ];
  const item = {
    id: id(10),
    name: 'Tris base, 1 kg',
    vendor: 'Sigma-Aldrich',
    catalog_number: 'T1503-1KG',
    price: '89.00',
    unit_size: '1 kg',
    quantity: '3.5',
    url: 'https://www.sigmaaldrich.com/US/en/product/sigma/t1503',
    technical_details: null,
    expiration_date: null,
    auto_reminder: '1MONTH',
    lot_number: null,
    cas_number: '77-86-1',
    vendor_product_id: null,
    lab,
    type: reagents,
    location: null,
    sublocation: null,
    added_by: ada,
    updated_by: ada,
    serial_number: null,
    instances,
    app_url: `${appUrl}/app/inventory/items/${id(10)}`,
  };
  const legacyItem = {
    ...item,
    id: id(13),
    name: 'DMEM, high glucose, 500 mL',
    vendor: 'Gibco',
    catalog_number: '11965092',
    price: '32.10',
    unit_size: '500 mL',
    quantity: '6',
    url: null,
    auto_reminder: null,
    cas_number: null,
    expiration_date: '2027-01-31',
    lot_number: '2741653',
    lab: legacyLab,
    type: { id: id(6), name: 'Media' },
    location: { name: 'Cold room' },
    sublocation: { name: 'Shelf B' },
    instances: [],
    app_url: `${appUrl}/app/inventory/items/${id(13)}`,
  };
  const orderRequest = {
    id: id(20),
    status: 'CREATED',
    vendor_name: 'Thermo Fisher Scientific',
    catalog_number: '23225',
    quantity: '2',
    unit_size: null,
    unit_price: '12.50',
    total_price: { amount: '2500', currency: 'USD' },
    requested_at: '2026-11-20T09:15:00.000Z',
    updated_at: '2026-11-20T09:15:00.000Z',
    requested_by: ada,
    created_by: ada,
    notes: 'For the December expression runs',
    item_name: 'Pierce BCA Protein Assay Kit',
    invoice_number: null,
    requisition_number: null,
    confirmation_number: null,
    tracking_number: null,
    purchase_order_number: null,
    shipping_and_handling: null,
    details: null,
    lab,
    type: reagents,
    spend_tracking_code: null,
    backordered_expected_at: null,
    is_urgent: false,
    app_url: `${appUrl}/app/order-requests/${id(20)}`,
  };
  const approved = { ...orderRequest, status: 'APPROVED', updated_at: '2026-11-20T10:02:00.000Z' };
  const ordered = {
    ...orderRequest,
    status: 'ORDERED',
    updated_at: '2026-11-21T08:30:00.000Z',
    events: [
      { type: 'CREATED', comment: null, created_at: '2026-11-20T09:15:00.000Z', created_by: ada },
      { type: 'ORDERED', comment: null, created_at: '2026-11-21T08:30:00.000Z', created_by: ada },
    ],
    updated_by: ada,
  };
  const type = { ...reagents, lab };
  const webhook = {
    id: id(30),
    name: 'Inventory sync',
    url: 'https://hooks.example.org/labstock',
    event_types: [fullEventType(vendor, 'inventory-item.created'), fullEventType(vendor, 'inventory-item.updated')],
    is_enabled: true,
    is_verified: true,
    is_signed: true,
    signing_key: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  };
  const lineShipment = {
    id: id(40),
    carrier: 'UPS',
    tracking: '1Z999AA10123456784',
    quantity: 2,
    shipped_at: '2026-11-23T14:00:00.000Z',
    delivered_at: null,
  };
  const line = {
    id: id(41),
    app_url: `${appUrl}/app/shop/orders/${id(42)}#item-${id(41)}`,
    status: 'SHIPPED',
    estimated_shipment_date: '2026-11-23',
    estimated_delivery_date: '2026-11-26',
    sell_price: { amount: '1250', currency: 'USD' },
    quantity: 2,
    product: {
      id: id(43),
      item_name: 'Pierce BCA Protein Assay Kit',
      catalog_number: '23225',
      unit: { name: 'kit', symbol: 'kit', amount: 1 },
    },
    shipments: [lineShipment],
    request: { ...orderRequest, status: 'ORDERED', updated_at: '2026-11-21T08:30:00.000Z' },
  };
  const money = (amount: string) => ({ amount, currency: 'USD' });
  const salesOrder = {
    id: id(42),
    key: 'SO-2026-K7Q3XM',
    app_url: `${appUrl}/app/shop/orders/${id(42)}`,
    payment_method: 'PURCHASE_ORDER',
    purchase_order_number: 'PO-88231',
    is_test: false,
    subtotal: money('2500'),
    shipping: money('1500'),
    handling: money('0'),
    tax: money('320'),
    total: money('4320'),
    lab,
    placed_by: ada,
    placed_at: '2026-11-21T08:30:00.000Z',
    items: [{ ...line, status: 'PLACED', shipments: [] }],
  };
  const shipment = { ...lineShipment, sales_order_item_id: line.id, sales_order: { id: salesOrder.id, key: salesOrder.key }, lab };
  const alert = {
    cause: 'expiring',
    fired_at: '2026-12-01T06:00:00.000Z',
    auto_reminder: '1MONTH',
    expiration_date: '2026-12-20',
    instance_ids: [id(11)],
    minimum_quantity: null,
    quantity: '3.5',
  };
  return { item, legacyItem, orderRequest, approved, ordered, type, webhook, line, salesOrder, shipment, alert };
}

export interface OperationExamples {
  request?: unknown;
  /** By status code. */
  responses: Record<string, unknown>;
}

/** The contract's 17 public operations, by operationId. */
export function operationExamples(vendor: string): Record<string, OperationExamples> {
  const x = examples(vendor);
  const createdWebhook = { ...x.webhook, id: id(31), name: 'Order desk', is_verified: false, url: 'https://orders.example.org/hooks' };
  return {
    getHealth: { responses: { 200: { status: 'ok', database: 'ok' }, 503: { status: 'unavailable', database: 'unreachable' } } },
    getCurrentUser: { responses: { 200: ada } },
    listInventoryItems: { responses: { 200: [x.item] } },
    getInventoryItem: { responses: { 200: x.item } },
    updateInventoryItemQuantity: { request: { quantity: '5' }, responses: { 200: { ...x.legacyItem, quantity: '5' } } },
    updateInventoryItemInstanceQuantity: {
      request: { quantity: '1' },
      responses: { 200: { ...x.item, quantity: '2.5', instances: [{ ...x.item.instances[0], quantity: '1' }, x.item.instances[1]] } },
    },
    listLabs: { responses: { 200: [lab, legacyLab] } },
    getLab: { responses: { 200: lab } },
    listOrderRequests: { responses: { 200: [x.orderRequest] } },
    createOrderRequest: {
      request: {
        lab_id: lab.id,
        type_id: reagents.id,
        name: 'Pierce BCA Protein Assay Kit',
        vendor_name: 'Thermo Fisher Scientific',
        catalog_number: '23225',
        price: { amount: '12.50', currency: 'USD' },
        quantity: 2,
        notes: 'For the December expression runs',
      },
      responses: { 201: x.orderRequest },
    },
    getOrderRequest: { responses: { 200: x.orderRequest } },
    updateOrderRequest: { request: { status: 'APPROVED' }, responses: { 200: x.approved } },
    listTypes: { responses: { 200: [x.type] } },
    listWebhooks: { responses: { 200: [x.webhook] } },
    createWebhook: {
      request: {
        organization_id: organization.id,
        name: 'Order desk',
        url: 'https://orders.example.org/hooks',
        event_types: ['order-request.ordered', 'order-request.received'],
      },
      responses: {
        201: {
          ...createdWebhook,
          event_types: [fullEventType(vendor, 'order-request.ordered'), fullEventType(vendor, 'order-request.received')],
        },
      },
    },
    getWebhook: { responses: { 200: x.webhook } },
    updateWebhook: { request: { is_enabled: false }, responses: { 200: { ...x.webhook, is_enabled: false } } },
  };
}

/** One delivered envelope of an event kind, as a receiver gets it. */
export function eventExample(vendor: string, short: ShortEventType): Record<string, unknown> {
  const x = examples(vendor);
  const byKey: Record<string, unknown> = {
    inventory_item: x.item,
    order_request: short === 'order-request.ordered' || short === 'order-request.updated' ? x.ordered : x.orderRequest,
    sales_order: x.salesOrder,
    sales_order_item: x.line,
    shipment: x.shipment,
    type: x.type,
    alert:
      short === 'inventory-item.below-minimum'
        ? { ...x.alert, cause: 'below_minimum', expiration_date: null, instance_ids: [], minimum_quantity: '5' }
        : x.alert,
  };
  return {
    specversion: '1.0',
    id: '01937a4c-2f10-7b3e-8c55-6d7e8f901234',
    source: SITE,
    type: fullEventType(vendor, short),
    datacontenttype: 'application/json',
    time: '2026-11-21T08:30:00.120Z',
    data: Object.fromEntries(dataKeysOf(short).map((key) => [key, byKey[key]])),
  };
}
