import { expect } from 'vitest';

/** Sends the request and checks that `state` reads the same after it as before: a refused request wrote nothing. */
export async function unchangedBy<R>(state: () => Promise<unknown>, send: () => Promise<R>): Promise<R> {
  const before = await state();
  const res = await send();
  expect(await state()).toEqual(before);
  return res;
}
