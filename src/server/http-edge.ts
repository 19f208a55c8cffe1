import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type IncomingMessage, type ServerOptions, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../shared/config.js';
import { AppError, ERROR_STATUS, type ErrorCode } from '../shared/errors.js';
import { addressKey } from './address-limit.js';

// The HTTP edge: how long a client may take to send a request, how many connections it may hold, and the error
// body of requests that Node's parser refuses before Fastify sees them (they would otherwise get Fastify's
// {"error","message","statusCode"} or an empty 400/417). Every answer here is the shape of src/server/http-errors.ts.

const PARSER_MESSAGES: Record<string, string> = {
  HPE_INVALID_METHOD: 'the method is not a valid HTTP method',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding must not both be sent',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding is not valid',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length is not valid',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value contains a character HTTP does not allow',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size is not valid',
  HPE_INVALID_VERSION: 'the HTTP version is not valid',
  HPE_INVALID_URL: 'the request target is not valid',
  HPE_CR_EXPECTED: 'a line does not end with CRLF',
  HPE_LF_EXPECTED: 'a line does not end with CRLF',
};

interface EdgeError {
  code: ErrorCode;
  message: string;
}

function describe(err: NodeJS.ErrnoException): EdgeError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'request_timeout', message: 'The request was not received in time' };
  if (err.code === 'HPE_HEADER_OVERFLOW') return { code: 'headers_too_large', message: 'The request headers are too large' };
  const detail = (err.code && PARSER_MESSAGES[err.code]) ?? 'it cannot be parsed';
  return { code: 'malformed_request', message: `The request is not valid HTTP: ${detail}` };
}

/** A raw HTTP/1.1 response that closes the connection; HEAD gets the headers only. */
function rawResponse(error: EdgeError, requestId: string, head: boolean): string {
  const status = ERROR_STATUS[error.code];
  const body = JSON.stringify({ message: error.message, code: error.code, request_id: requestId });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${head ? '' : body}`
  );
}

// The method is known when the request line is in the chunk that failed (a request sent at once) or when the
// request was parsed and a response is pending (a body timeout).
function isHead(err: { rawPacket?: unknown }, socket: Socket): boolean {
  const raw = err.rawPacket;
  if (Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ') return true;
  const pending = (socket as unknown as { _httpMessage?: ServerResponse | null })._httpMessage;
  return pending?.req?.method === 'HEAD';
}

/** Fastify's clientErrorHandler: requests Node refused (malformed, headers too large, too slow). */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = describe(err);
  const requestId = randomUUID();
  // The raw packet may hold an access token: log the parser's code only.
  this.log.debug({ code: err.code, request_id: requestId }, `refused at the HTTP edge: ${error.code}`);
  const pending = (socket as unknown as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !pending?.headersSent) socket.write(rawResponse(error, requestId, isHead(err, socket)));
  socket.destroy();
}

/** Fastify/Node server options for the edge; the timeouts are settings so tests can make them short. */
export function edgeServerOptions(config: Config) {
  const http: ServerOptions = {
    headersTimeout: config.httpHeadersTimeoutMs,
    requestTimeout: config.httpRequestTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    // Node checks the two timeouts on this interval (30 s by default, which would let a 10 s timeout run to 40 s).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(config.httpHeadersTimeoutMs / 4))),
    // A missing Host is refused by our hook below in our error shape, not by Node with an empty 400.
    requireHostHeader: false,
  };
  return { http, requestTimeout: config.httpRequestTimeoutMs, keepAliveTimeout: config.httpKeepAliveTimeoutMs, clientErrorHandler };
}

function expectsBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/**
 * Open connections per client address (IPv6 by its /64, as src/server/address-limit.ts counts): beyond `cap` a new
 * one is closed at once, before anything is read, so one client holding idle connections cannot take all of
 * HTTP_MAX_CONNECTIONS from the others. The socket's own address: behind a proxy every connection is the proxy's.
 */
function capConnectionsPerAddress(server: FastifyInstance['server'], cap: number): void {
  if (cap <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= cap) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/** Connection caps, Expect handling, closing connections whose body nobody will read, and Host checks. */
export function installHttpEdge(app: FastifyInstance, config: Config): void {
  app.server.maxConnections = config.httpMaxConnections;
  capConnectionsPerAddress(app.server, config.httpMaxConnectionsPerAddress);

  // Node answers an Expect other than 100-continue with an empty 417 unless someone listens.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const body = JSON.stringify({ message: 'Only "Expect: 100-continue" is supported', code: 'expectation_failed', request_id: requestId });
    res.writeHead(ERROR_STATUS.expectation_failed, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });

  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new AppError('malformed_request', 'The request is not valid HTTP: HTTP/1.1 requires a Host header');
    }
  });

  // An answer sent before the body has arrived (401, 413, 429…) closes the connection: otherwise Node keeps
  // reading, for keep-alive, a body nobody will use, as slowly as the client likes.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete && expectsBody(request.raw.headers)) reply.header('Connection', 'close');
    return payload;
  });
}

/**
 * The token, refusing ambiguous credentials: Node keeps only the first of two Authorization headers and joins
 * two Access-Token headers, so the raw headers are counted.
 */
export function checkCredentialHeaders(rawHeaders: string[], direct: string | undefined, bearer: string | undefined): void {
  let authorization = 0;
  let accessToken = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (name === 'authorization') authorization++;
    else if (name === 'access-token') accessToken++;
  }
  if (authorization > 1) throw new AppError('malformed_request', 'Send one Authorization header, not several');
  if (accessToken > 1) throw new AppError('malformed_request', 'Send one Access-Token header, not several');
  if (direct !== undefined && bearer !== undefined && direct !== bearer) {
    throw new AppError('malformed_request', 'The Access-Token and Authorization headers carry different tokens: send one');
  }
}
