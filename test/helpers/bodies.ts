// Cases every JSON endpoint's errors tests share: a body in another media type is 415, one `it` each, so a file
// names only its request (`send` checks, as the file's own `unchanged` does, that nothing was written).

import type { LightMyRequestResponse } from 'fastify';
import { it } from 'vitest';
import { expectError } from './errors.js';

/** A form-encoded body and a text/plain one (holding `form` and `json`, what the endpoint takes as JSON) are 415. */
export function itRefusesOtherMediaTypes(
  send: (payload: string, contentType: string) => Promise<LightMyRequestResponse>,
  form: string,
  json: string,
): void {
  it('415 unsupported_media_type for a form-encoded body', async () => {
    expectError(await send(form, 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
  });

  it('415 unsupported_media_type for a text/plain body', async () => {
    expectError(await send(json, 'text/plain'), 415, 'unsupported_media_type');
  });
}
