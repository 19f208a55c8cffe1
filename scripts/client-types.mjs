// The typed client's generated types (client/src/generated/schema.ts) from the OpenAPI document. Used by
// `npm run client:generate` (scripts/generate-client.mjs) and by the test that fails when the committed file is
// stale (client/test/generated.test.ts), so both produce exactly the same text from the same document.
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

/** Where the generated types live, relative to the repository root. */
export const GENERATED_TYPES = 'client/src/generated/schema.ts';

/** TypeScript declarations (`paths`, `webhooks`, `components`, `operations`) for `document`. */
export async function clientTypes(document) {
  // The generator reads the document as given; a copy keeps the caller's object as it was.
  const ast = await openapiTS(structuredClone(document), { silent: true });
  return `${COMMENT_HEADER}// Regenerate with \`npm run client:generate\` (scripts/generate-client.mjs).\n\n${astToString(ast)}`;
}
