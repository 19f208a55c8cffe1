import type { FastifyInstance } from 'fastify';
import { fieldError } from './errors.js';

// PostgreSQL text cannot hold U+0000, and no lab inventory value needs it: refuse it everywhere (422) so both
// databases behave alike and no query ever fails on it. The walk is iterative because bodies may be nested
// far deeper than the call stack allows.
const NUL = '\u0000';

function findNul(root: unknown, rootName: string): string | null {
  const stack: [unknown, string][] = [[root, rootName]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], `${path}[${i}]`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes(NUL)) return path ? `${path}.${k}` : k;
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const path = findNul(request.params, '') ?? findNul(request.query, '') ?? findNul(request.body, '');
    if (path !== null) throw fieldError(path || 'body', 'must not contain the NUL character (U+0000)');
  });
}

/**
 * A preValidation hook for POSTs whose body is all optional: a request without one (curl -X POST with no -d)
 * validates as `{}`; a body that is sent is validated as it is.
 */
export const emptyBodyIsEmptyObject = async (request: { body: unknown }): Promise<void> => {
  if (request.body === undefined || request.body === null) request.body = {};
};
