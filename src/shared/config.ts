// The environment is read once, at start, into one frozen object. Every problem is collected and reported
// together so an operator fixes a bad deployment in one pass instead of one variable at a time.

import { parseDuration, readers } from './config-readers.js';

export { parseDuration };

import { type MailSettings, parseMailSettings } from './mail.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  /** PostgreSQL: connect (and pool checkout), statement_timeout, idle_in_transaction_session_timeout (docs/decisions/0003-database-failures.md). */
  databaseTimeouts: { connectMs: number; statementMs: number; idleInTransactionMs: number };
  /** PostgreSQL: statements run often are prepared once per connection (off behind a transaction-pooling proxy). */
  databasePreparedStatements: boolean;
  appUrl: string;
  /**
   * Origins a browser may sign in from and send the session cookie from: APP_URL's; with APP_URL unset also every
   * loopback spelling of the port (localhost, 127.0.0.1, [::1]), so the printed address and http://localhost both work.
   */
  appOrigins: string[];
  eventVendor: string;
  eventSource: string;
  logLevel: string;
  webhookTimeoutMs: number;
  webhookRetryScheduleMs: number[];
  webhookAllowedCidrs: string[];
  webhookRequireVerification: boolean;
  /** How long a worker owns a claimed delivery; a worker that dies loses it to another after this. */
  webhookLeaseMs: number;
  /** Fallback poll when no wake-up signal arrives (LISTEN/NOTIFY on PostgreSQL, in-process on SQLite). */
  webhookPollMs: number;
  webhookConcurrency: number;
  /** Attempts to one webhook in flight at once per worker, so a slow receiver holds only its share of the slots. */
  webhookConcurrencyPerEndpoint: number;
  /** A webhook with no success for this long is disabled. */
  webhookDisableAfterMs: number;
  /** Delivered events, deliveries and attempts older than this are pruned. */
  webhookRetentionMs: number;
  /** WEBHOOK_TRACE: a file the worker appends each delivery's step timestamps to (src/delivery/trace.ts); null: off. */
  webhookTracePath: string | null;
  /** Requests per minute per token; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Requests per minute per client address that do not authenticate (no token, a bad token, open routes); 0 = off. */
  rateLimitPerAddressPerMinute: number;
  /** HTTP edge (src/server/http-edge.ts): time to receive the headers, the whole request, and keep-alive idle time. */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  /** Open connections beyond this are refused, so slow clients cannot exhaust file descriptors; per address: 0 = no cap. */
  httpMaxConnections: number;
  httpMaxConnectionsPerAddress: number;
  /** SIGTERM/SIGINT: past this the process exits with code 1 whatever is still closing (a stalled database). */
  shutdownTimeoutMs: number;
  bodyLimitBytes: number;
  /** CSV imports (dry runs included) running at once in this process; one per lab whatever this says (docs/csv.md). */
  importConcurrency: number;
  /** Attachments (docs/attachments.md): the largest content accepted (413 beyond), and the media types read from the content that are accepted (415 otherwise). */
  attachmentMaxBytes: number;
  attachmentTypes: readonly string[];
  /** A safety data sheet older than this many years is due for review (docs/hazards.md, "Safety data sheets"). */
  sdsReviewYears: number;
  /** Per-order shop charges in major units of the order's currency, and the tax rate (0.08 = 8 %). */
  shopShipping: string;
  shopHandling: string;
  shopTaxRate: string;
  /** Days from checkout to the estimated shipment date. */
  shopShipDays: number;
  /** Sign-in sessions (docs/auth.md): unused this long, they end; they end this long after sign-in whatever happens. */
  sessionIdleTimeoutMs: number;
  sessionMaxAgeMs: number;
  /** A session's cookie value is replaced on the first request after this long. */
  sessionRotateMs: number;
  /** Fastify's trustProxy: false, true (any proxy), a hop count, or the proxies' addresses/CIDR ranges. */
  trustProxy: boolean | number | string[];
  /** Browser origins allowed to call the API with tokens (CORS); never with the session cookie. */
  corsOrigins: string[];
  /** Ranges an SSO issuer may be reached at although not public (the discovery and token requests; docs/auth.md). */
  ssoAllowedCidrs: string[];
  ssoDnsServers: string[]; // SSO_DNS_SERVERS: `ip` or `ip:port`; none = the system's (src/accounts/sso-domains.ts)
  /** ALERT_SCAN_INTERVAL: how often the worker looks for reminders and alerts (src/alerts/job.ts). */
  alertScanIntervalMs: number;
  /** SMTP_URL and MAIL_FROM (src/shared/mail.ts); email is off without SMTP_URL. */
  mail: MailSettings;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const DEFAULT_SQLITE_FILE = './data/labstock.sqlite';

export function parseDatabaseUrl(raw: string | undefined): Config['database'] {
  const value = (raw ?? '').trim();
  if (value === '') return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  if (/^sqlite:/i.test(value)) return { kind: 'sqlite', file: value.replace(/^sqlite:(\/\/)?/i, '') || DEFAULT_SQLITE_FILE };
  if (/^file:/i.test(value)) return { kind: 'sqlite', file: value.replace(/^file:(\/\/)?/i, '') };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError([`DATABASE_URL: unsupported scheme in "${value.split('://')[0]}://…" (use postgres://… or a SQLite file path)`]);
  }
  return { kind: 'sqlite', file: value };
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const { int, bool, url, duration, list, cidrs, decimal } = readers(env, problems);

  const port = int('PORT', 8080, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';

  let database: Config['database'] = { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (e) {
    if (e instanceof ConfigError) problems.push(...e.problems);
    else throw e;
  }

  const appUrlSet = (env.APP_URL?.trim() ?? '') !== '';
  const appUrl = url('APP_URL', defaultAppUrl(host, port));
  const appOrigins = appOriginsFor(appUrl, appUrlSet, port);
  const eventVendor = env.EVENT_VENDOR?.trim() || 'labstock';
  if (!/^[a-z0-9][a-z0-9-]*$/.test(eventVendor)) {
    problems.push(
      `EVENT_VENDOR: expected lower-case letters, digits and dashes (it becomes com.<vendor>.<resource>.<kind>), got "${eventVendor}"`,
    );
  }
  const eventSource = url('EVENT_SOURCE', appUrl);

  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }

  const webhookTimeoutMs = int('WEBHOOK_TIMEOUT_MS', 3000, 1, 60_000);

  let webhookRetryScheduleMs = [10_000, 100_000, 1_000_000];
  const schedule = env.WEBHOOK_RETRY_SCHEDULE?.trim();
  if (schedule) {
    const parsed = schedule.split(',').map((part) => parseDuration(part.trim()));
    if (parsed.some((v) => v === null)) {
      problems.push(
        `WEBHOOK_RETRY_SCHEDULE: expected comma-separated durations such as "10s,100s,1000s" or "50ms,200ms", got "${schedule}"`,
      );
    } else {
      webhookRetryScheduleMs = parsed as number[];
    }
  }

  const webhookAllowedCidrs = cidrs('WEBHOOK_ALLOWED_CIDRS');
  const ssoAllowedCidrs = cidrs('SSO_ALLOWED_CIDRS');

  // RATE_LIMIT_PER_MINUTE=0 turns every limit off unless the per-address one is set explicitly.
  const rateLimitsOff = env.RATE_LIMIT_PER_MINUTE?.trim() === '0';
  const rateLimitPerAddressPerMinute = int('RATE_LIMIT_PER_ADDRESS_PER_MINUTE', rateLimitsOff ? 0 : 120, 0, 1_000_000);
  const httpHeadersTimeoutMs = duration('HTTP_HEADERS_TIMEOUT', 10_000);
  const httpRequestTimeoutMs = duration('HTTP_REQUEST_TIMEOUT', 30_000);
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs) problems.push('HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_REQUEST_TIMEOUT');

  const webhookConcurrency = int('WEBHOOK_CONCURRENCY', 16, 1, 256);
  // Default: half the slots. A receiver that hangs leaves the other half to everyone else; a lower share cut a
  // burst to one fast receiver by more than half (fewer answers recorded per transaction).
  const webhookConcurrencyPerEndpoint = int('WEBHOOK_CONCURRENCY_PER_ENDPOINT', Math.ceil(webhookConcurrency / 2), 1, 256);
  if (webhookConcurrencyPerEndpoint > webhookConcurrency) {
    problems.push(
      `WEBHOOK_CONCURRENCY_PER_ENDPOINT: must not be more than WEBHOOK_CONCURRENCY (${webhookConcurrency}), got ${webhookConcurrencyPerEndpoint}`,
    );
  }

  const sessionIdleTimeoutMs = duration('SESSION_IDLE_TIMEOUT', 12 * 3_600_000);
  const sessionMaxAgeMs = duration('SESSION_MAX_AGE', 14 * 86_400_000);
  if (sessionIdleTimeoutMs > sessionMaxAgeMs) problems.push('SESSION_IDLE_TIMEOUT: must not be longer than SESSION_MAX_AGE');
  const corsOrigins = list('CORS_ORIGINS');
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) problems.push(`CORS_ORIGINS: "${origin}" is not an origin such as https://app.example.org`);
  }

  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const attachmentTypes = env.ATTACHMENT_TYPES?.trim() ? list('ATTACHMENT_TYPES').map((t) => t.toLowerCase()) : DEFAULT_ATTACHMENT_TYPES;
  for (const t of attachmentTypes) {
    if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(t)) {
      problems.push(`ATTACHMENT_TYPES: "${t}" is not a media type such as application/pdf`);
    }
  }
  const config: Config = {
    port,
    host,
    databaseUrl: env.DATABASE_URL ?? '',
    database,
    databaseTimeouts: {
      connectMs: duration('DATABASE_CONNECT_TIMEOUT', 5000),
      statementMs: duration('DATABASE_STATEMENT_TIMEOUT', 30_000),
      idleInTransactionMs: duration('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT', 60_000),
    },
    databasePreparedStatements: bool('DATABASE_PREPARED_STATEMENTS', true),
    appUrl,
    appOrigins,
    eventVendor,
    eventSource,
    logLevel,
    webhookTimeoutMs,
    webhookRetryScheduleMs,
    webhookAllowedCidrs,
    ssoAllowedCidrs,
    ssoDnsServers: list('SSO_DNS_SERVERS'),
    webhookRequireVerification: bool('WEBHOOK_REQUIRE_VERIFICATION', false),
    webhookLeaseMs: duration('WEBHOOK_LEASE', 60_000),
    webhookPollMs: duration('WEBHOOK_POLL', 1000),
    webhookConcurrency,
    webhookConcurrencyPerEndpoint,
    webhookDisableAfterMs: duration('WEBHOOK_DISABLE_AFTER', 5 * 86_400_000),
    webhookRetentionMs: duration('WEBHOOK_RETENTION', 30 * 86_400_000),
    webhookTracePath: env.WEBHOOK_TRACE?.trim() || null,
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    rateLimitPerAddressPerMinute,
    httpHeadersTimeoutMs,
    httpRequestTimeoutMs,
    httpKeepAliveTimeoutMs: duration('HTTP_KEEP_ALIVE_TIMEOUT', 5000),
    httpMaxConnections: int('HTTP_MAX_CONNECTIONS', 1000, 1, 1_000_000),
    httpMaxConnectionsPerAddress: int('HTTP_MAX_CONNECTIONS_PER_ADDRESS', trustProxy === false ? 100 : 0, 0, 1_000_000),
    shutdownTimeoutMs: duration('SHUTDOWN_TIMEOUT', 10_000),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    importConcurrency: int('IMPORT_CONCURRENCY', 2, 1, 64),
    attachmentMaxBytes: int('ATTACHMENT_MAX_BYTES', 26_214_400, 1024, 1_073_741_824),
    attachmentTypes,
    sdsReviewYears: int('SDS_REVIEW_YEARS', 5, 1, 50),
    shopShipping: decimal('SHOP_SHIPPING', '0', 1_000_000),
    shopHandling: decimal('SHOP_HANDLING', '0', 1_000_000),
    shopTaxRate: decimal('SHOP_TAX_RATE', '0', 1),
    shopShipDays: int('SHOP_SHIP_DAYS', 2, 0, 365),
    sessionIdleTimeoutMs,
    sessionMaxAgeMs,
    sessionRotateMs: duration('SESSION_ROTATE', 3_600_000),
    trustProxy,
    corsOrigins,
    alertScanIntervalMs: duration('ALERT_SCAN_INTERVAL', 5 * 60_000),
    mail: parseMailSettings(env, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** PDF and the common photo formats; never SVG or HTML, which a browser could run (docs/attachments.md). */
export const DEFAULT_ATTACHMENT_TYPES: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * APP_URL when unset: the address `serve` listens on and prints (HOST, by default 127.0.0.1), so the link it prints
 * is one a browser may sign in at; a wildcard HOST (0.0.0.0, ::) names no address, so localhost stands for it.
 */
export function defaultAppUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return `http://localhost:${port}`;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function appOriginsFor(appUrl: string, appUrlSet: boolean, port: number): string[] {
  if (!URL.canParse(appUrl)) return [];
  const own = new URL(appUrl).origin;
  if (appUrlSet) return [own];
  return [own, ...LOOPBACK_NAMES.map((name) => `http://${name}:${port}`).filter((o) => o !== own)];
}

/** Off unless set: "true" trusts any proxy, a number the hops, otherwise a list of proxy addresses or CIDR ranges. */
function parseTrustProxy(raw: string | undefined, problems: string[]): Config['trustProxy'] {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (/^[1-9]\d{0,1}$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.every((e) => /^[0-9a-f:.]+(\/\d{1,3})?$/.test(e))) return entries;
  problems.push(`TRUST_PROXY: expected true, a hop count, or proxy addresses/CIDR ranges, got "${raw}"`);
  return false;
}
