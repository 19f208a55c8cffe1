import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { Ajv, ValidateFunction } from 'ajv';

// Every app compiles a validator and a response serializer per route when it starts: about a second of CPU for the
// API's routes, most of it in fast-json-stringify. A process that builds many apps from the same schemas (the test
// suite builds one per test file, and its workers keep their modules from file to file: vitest.config.ts) would
// compile the same functions again each time. What a compiled function does depends only on its schema, the
// options and, for serializers, the shared named schemas it may refer to, so it is kept per process under a key
// made of those. A server builds one app, so for it this changes nothing.

const hash = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('base64url');

const validators = new Map<string, ValidateFunction>();

/** `ajv.compile(schema)`, once per process for each distinct (ajv's role, schema). */
export function compileValidator(ajv: Ajv, role: string, schema: object): ValidateFunction {
  const key = `${role}:${hash(schema)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = (data: unknown) => string;

const serializers = new Map<string, Serializer>();
const compileSerializers: SerializerFactory = SerializerSelector();

/** Fastify's `schemaController.compilersFactory.buildSerializer`: its default, remembered per process. */
export const buildSerializer: SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = compileSerializers(externalSchemas, serializerOpts);
  const context = hash([externalSchemas ?? null, serializerOpts ?? null]);
  return (definition) => {
    const key = `${context}:${hash(definition.schema)}`;
    let serialize = serializers.get(key);
    if (!serialize) {
      serialize = compile(definition) as Serializer;
      serializers.set(key, serialize);
    }
    return serialize;
  };
};
