// Route hooks that domain routes share (the server-wide hooks live in src/server/).
/**
 * A preValidation hook for POSTs whose body is all optional: a request without one (curl -X POST with no -d)
 * validates as `{}`; a body that is sent is validated as it is.
 */
export const emptyBodyIsEmptyObject = async (request: { body: unknown }): Promise<void> => {
  if (request.body === undefined || request.body === null) request.body = {};
};
