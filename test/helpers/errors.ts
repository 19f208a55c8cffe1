// The error body every refusal carries (docs/errors.md): one set of assertions for every test folder.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export const SNAKE_RE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** What the assertions read of a response (light-my-request's, or a test's own stand-in for one). */
type ResponseLike = Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'json'> & { headers: Record<string, unknown> };

/** Asserts an error response: status, JSON body with message, snake_case code (optionally exact) and request_id. */
export function expectError(res: ResponseLike, status: number, code?: string): any {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json();
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(typeof body.code).toBe('string');
  expect(body.code).toMatch(SNAKE_RE);
  if (code !== undefined) expect(body.code).toBe(code);
  expect(typeof body.request_id).toBe('string');
  expect(body.request_id.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  return body;
}

/** 422 naming `field` in errors[]. */
export function expectValidation(res: LightMyRequestResponse, field: string): any {
  const body = expectError(res, 422, 'validation_failed');
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.map((e: any) => e.field)).toContain(field);
  for (const e of body.errors) {
    expect(typeof e.field).toBe('string');
    expect(typeof e.message).toBe('string');
  }
  return body;
}

/** 422 whose message and errors[] both name `field`. */
export function expectValidationError(res: LightMyRequestResponse, field: string): void {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json();
  expect(body.code).toBe('validation_failed');
  expect(typeof body.message).toBe('string');
  expect(body.message).toContain(field);
  expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
}

export function expectNotFound(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(404);
  const body = res.json();
  expect(body.code).toBe('not_found');
  expect(typeof body.message).toBe('string');
}
