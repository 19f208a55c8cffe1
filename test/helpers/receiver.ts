import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudEvent, HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed and validated by the `cloudevents` package, or null for a non-POST or an invalid event. */
  event: CloudEvent<unknown> | null;
  /** Why the body is not a valid CloudEvent (the receiver then answers 400). */
  parseError: string | null;
  at: number;
}

export type Responder = (
  req: Received,
  index: number,
) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

/**
 * A real webhook receiver on 127.0.0.1: it records every request, parses POST bodies with the cloudevents
 * package, and answers with whatever `respond` says (204 by default).
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 204 });
  private server = http.createServer((req, res) => this.handle(req, res));
  private waiters: { n: number; resolve: () => void }[] = [];
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get posts(): Received[] {
    return this.received.filter((r) => r.method === 'POST');
  }

  /** Resolves when `n` POSTs have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs = 15_000): Promise<void> {
    if (this.posts.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver got ${this.posts.length} of ${n} deliveries in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Verifies a delivery's Standard Webhooks signature with the official package; throws if it does not verify. */
  static verify(received: Received, signingKey: string): unknown {
    return new Webhook(signingKey).verify(received.body, {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: CloudEvent<unknown> | null = null;
      let parseError: string | null = null;
      if (req.method === 'POST') {
        try {
          // Structured mode under application/cloudevents+json; under plain application/json the body is the
          // same JSON event, which the CloudEvent constructor validates against the spec.
          if (String(req.headers['content-type']).startsWith('application/cloudevents+json')) {
            const parsed = HTTP.toEvent({ headers: req.headers as Record<string, string>, body });
            event = (Array.isArray(parsed) ? parsed[0] : parsed) as CloudEvent<unknown>;
          } else {
            event = new CloudEvent(JSON.parse(body) as Record<string, unknown>, true);
          }
        } catch (err) {
          parseError = err instanceof Error ? err.message : String(err);
        }
      }
      const record: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        event,
        parseError,
        at: Date.now(),
      };
      this.received.push(record);
      const answer = parseError ? { status: 400, body: parseError } : this.respond(record, this.received.length - 1);
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
        for (const w of this.waiters.filter((x) => this.posts.length >= x.n)) w.resolve();
        this.waiters = this.waiters.filter((x) => this.posts.length < x.n);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  }
}
