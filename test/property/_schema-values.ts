// Reads the operations out of the served OpenAPI document and builds fast-check values from their request schemas,
// so the fuzzer covers every operation the service documents, including ones added after it was written.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}

export interface DocOperation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodySchema?: JsonSchema;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: OpenApiDoc): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        ...(op.requestBody?.content?.['application/json']?.schema ? { bodySchema: op.requestBody.content['application/json'].schema } : {}),
      });
    }
  }
  return out;
}

const decimal = fc.tuple(fc.nat({ max: 100_000 }), fc.nat({ max: 99 })).map(([i, f]) => (f ? `${i}.${f}` : String(i)));
const day = fc
  .date({ min: new Date('2020-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A value that fits `schema` most of the time; string fields ending in `_id` take ids from `idFor`. */
export function valueFor(schema: JsonSchema, idFor: (field: string) => fc.Arbitrary<string>, field = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => valueFor(b, idFor, field)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  const type = types.find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true });
    case 'array': {
      const items = schema.items ? valueFor(schema.items, idFor, field) : fc.string();
      return fc.array(items, { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    }
    case 'string': {
      if (schema.format === 'uuid' || /(^|_)ids?$/.test(field)) return idFor(field);
      if (schema.format === 'date') return day;
      if (schema.format === 'date-time') return day.map((d) => `${d}T12:00:00.000Z`);
      if (schema.format === 'uri' || field === 'url') return fc.constantFrom('https://hooks.example.org/x', 'http://127.0.0.1/', 'ftp://x');
      if (schema.pattern && /\\d/.test(schema.pattern)) return decimal;
      return fc.string({ minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 20, 20) });
    }
    default: {
      const props = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      const entries = props.map(([name, s]) => [name, valueFor(s, idFor, name)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: props.map(([n]) => n).filter((n) => required.has(n)) });
    }
  }
}
