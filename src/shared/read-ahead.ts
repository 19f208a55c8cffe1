/**
 * A read started before it is known to be needed (beside another one, to save a round trip): a failure surfaces
 * where it is awaited, and one that nobody awaits (the request failed first, or a guess was wrong) is not left
 * unhandled, which would end the process.
 */
export function readAhead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}
