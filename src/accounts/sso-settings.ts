import ipaddr from 'ipaddr.js';
import { hostOf, isLocalName, literalTargetProblem, parseCidrs } from '../delivery/ssrf.js';
import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import type { OrganizationSsoTable } from '../shared/db/schema.js';
import { type FieldError, notFound, validation } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { forgetProvider } from './sso-client.js';
import { organizationForDomain, releaseAllClaims, syncClaims, verifiedDomainsOf } from './sso-domains.js';
import * as repo from './sso-repository.js';
import type { OrganizationSso, PutOrganizationSsoBody } from './sso-schemas.js';
import { requireAdmin } from './user-tokens.js';

// An organization's single sign-on settings, for its org admins (docs/auth.md, Single sign-on). The path names no
// organization: an admin reads and writes only the settings of the organization they act in. The client secret
// is write-only: stored, sent to the provider, never returned nor logged.

const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const callbackUrl = (appUrl: string): string => `${appUrl.replace(/\/+$/, '')}/auth/sso/callback`;

export function parseDomains(stored: string): string[] {
  const value: unknown = JSON.parse(stored);
  return Array.isArray(value) ? value.filter((d): d is string => typeof d === 'string') : [];
}

function present(row: OrganizationSsoTable, appUrl: string): OrganizationSso {
  return {
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret.length > 0,
    allowed_domains: parseDomains(row.allowed_domains),
    enabled: row.enabled === 1,
    redirect_uri: callbackUrl(appUrl),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const isLoopbackHost = (host: string): boolean => isLocalName(host) || (ipaddr.isValid(host) && ipaddr.parse(host).range() === 'loopback');

/**
 * Why an issuer URL is refused, or null. https only; http for a loopback host (a provider on the same machine,
 * as in the tests). No credentials, query or fragment (the discovery URL is built from it). A literal address or
 * local name that is not public is refused unless SSO_ALLOWED_CIDRS opens it; the connect-time guard
 * (src/accounts/sso-client.ts) covers names that resolve to such addresses.
 */
export function issuerProblem(raw: string, allowedCidrs: string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.protocol === 'http:' && !isLoopbackHost(hostOf(url))) return 'must be an https URL (http only for a provider on this machine)';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.search || url.hash) return 'must not have a query or fragment';
  const blocked = literalTargetProblem(raw, parseCidrs(allowedCidrs));
  return blocked ? `${blocked.replace(/webhooks may only reach/, 'issuers must be')} (SSO_ALLOWED_CIDRS opens ranges)` : null;
}

export async function getOrganizationSso(db: Db, actor: Actor, appUrl: string): Promise<OrganizationSso> {
  requireAdmin(actor);
  const row = await repo.findSsoSettings(db, actor.organizationId);
  if (!row) throw notFound('SSO settings');
  return present(row, appUrl);
}

export async function putOrganizationSso(
  db: Db,
  actor: Actor,
  input: PutOrganizationSsoBody,
  settings: { appUrl: string; ssoAllowedCidrs: string[] },
): Promise<{ created: boolean; sso: OrganizationSso }> {
  requireAdmin(actor);
  const errors: FieldError[] = [];
  const issuer = input.issuer.trim().replace(/\/+$/, '');
  const problem = issuerProblem(issuer, settings.ssoAllowedCidrs);
  if (problem) errors.push({ field: 'issuer', message: problem });
  const clientId = input.client_id.trim();
  if (!clientId) errors.push({ field: 'client_id', message: 'must not be empty' });
  const domains = [...new Set(input.allowed_domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')))];
  domains.forEach((d, i) => {
    if (!DOMAIN_RE.test(d)) errors.push({ field: `allowed_domains[${i}]`, message: `"${d}" is not a domain such as lab.example.org` });
  });
  return db.transaction().execute(async (trx) => {
    const existing = await repo.findSsoSettings(trx, actor.organizationId);
    const secret = input.client_secret?.trim() || existing?.client_secret;
    if (input.client_secret !== undefined && !input.client_secret.trim())
      errors.push({ field: 'client_secret', message: 'must not be empty' });
    else if (!secret) errors.push({ field: 'client_secret', message: 'is required when SSO is first configured' });
    if (errors.length > 0) throw validation(errors);
    const now = nowIso();
    const row: OrganizationSsoTable = {
      organization_id: actor.organizationId,
      issuer,
      client_id: clientId,
      client_secret: secret!,
      allowed_domains: JSON.stringify(domains),
      enabled: input.enabled ? 1 : 0,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    await repo.saveSsoSettings(trx, row);
    // The domains are claimed for this organization (409 when another holds one); unverified until proved.
    await syncClaims(trx, actor.organizationId, domains);
    if (existing) forgetProvider(existing.issuer);
    return { created: !existing, sso: present(row, settings.appUrl) };
  });
}

export async function deleteOrganizationSso(db: Db, actor: Actor): Promise<void> {
  requireAdmin(actor);
  const existing = await db.transaction().execute(async (trx) => {
    const found = await repo.findSsoSettings(trx, actor.organizationId);
    if (!found || (await repo.deleteSsoSettings(trx, actor.organizationId)) === 0) throw notFound('SSO settings');
    // Its domains are released: another organization may claim (and must prove) them.
    await releaseAllClaims(trx, actor.organizationId);
    return found;
  });
  forgetProvider(existing.issuer);
}

/**
 * The enabled settings for a sign-in: by organization id, or by the domain of an e-mail address. Only verified
 * domains count (src/accounts/sso-domains.ts): by e-mail, the one organization whose verified claim covers the
 * domain; and the settings' allowed_domains are narrowed to the verified ones, which alone create accounts.
 */
export async function ssoSettingsFor(db: Db, by: { organizationId?: string; email?: string }): Promise<OrganizationSsoTable | null> {
  let organizationId = by.organizationId;
  if (!organizationId) {
    const domain = by.email?.trim().toLowerCase().split('@')[1];
    if (!domain) return null;
    organizationId = await organizationForDomain(db, domain);
    if (!organizationId) return null;
  }
  const row = await repo.findSsoSettings(db, organizationId);
  if (row?.enabled !== 1) return null;
  const verified = new Set(await verifiedDomainsOf(db, organizationId));
  return { ...row, allowed_domains: JSON.stringify(parseDomains(row.allowed_domains).filter((d) => verified.has(d))) };
}
