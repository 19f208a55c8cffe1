// A real TCP proxy in front of PostgreSQL, for the tests of a database that goes away (test/resilience): it
// forwards bytes both ways until told to stall (stop forwarding, as a network or proxy that stops answering;
// new connections are accepted and held), resume, or reset every connection (RST, as a restarting proxy).
import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
}

export class TcpProxy {
  private server = net.createServer((client) => this.accept(client));
  private readonly pairs = new Set<Pair>();
  private held: Pair[] = [];
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy in front of the PostgreSQL server named by `databaseUrl`. */
  static forUrl(databaseUrl: string): TcpProxy {
    const u = new URL(databaseUrl);
    return new TcpProxy(u.hostname || '127.0.0.1', Number(u.port || 5432));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string {
    const u = new URL(databaseUrl);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Connections open through the proxy. */
  get connections(): number {
    return this.pairs.size;
  }

  /** Stops forwarding in both directions: nothing is lost or closed, it just stops arriving. */
  stall(): void {
    this.stalled = true;
    for (const p of this.pairs) {
      p.client.pause();
      p.upstream?.pause();
    }
  }

  /** Forwards again, including what was sent meanwhile, and connects the connections accepted while stalled. */
  resume(): void {
    this.stalled = false;
    for (const p of this.pairs) {
      p.client.resume();
      p.upstream?.resume();
    }
    for (const p of this.held.splice(0)) this.connect(p);
  }

  /** Resets every open connection (TCP RST on both sides). */
  reset(): void {
    for (const p of [...this.pairs]) this.drop(p);
    this.held = [];
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const pair: Pair = { client, upstream: null };
    this.pairs.add(pair);
    client.on('error', () => this.drop(pair));
    client.on('close', () => this.drop(pair));
    client.pause();
    if (this.stalled) this.held.push(pair);
    else this.connect(pair);
  }

  private connect(pair: Pair): void {
    if (!this.pairs.has(pair)) return;
    const upstream = net.connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => this.drop(pair));
    upstream.on('close', () => this.drop(pair));
    upstream.pipe(pair.client);
    pair.client.pipe(upstream); // pipe() resumes its source
    if (this.stalled) {
      upstream.pause();
      pair.client.pause();
    }
  }

  private drop(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    for (const s of [pair.client, pair.upstream]) {
      if (s && !s.destroyed) s.resetAndDestroy();
    }
  }
}
