import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Actor, SystemActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { SsoDomainsTable } from '../shared/db/schema.js';
import { AppError, type FieldError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import * as repo from './sso-domains-repository.js';
import type { SsoDomain } from './sso-schemas.js';
import { requireAdmin } from './user-tokens.js';

// Single sign-on domains (docs/auth.md, Single sign-on): listing a domain in allowed_domains claims it for the
// organization, and a domain is claimed by one organization of the installation at most. A claim counts for
// sign-in (routing by e-mail, accounts at first sign-in) only once proved: the organization publishes a TXT
// record (`_labstock-verification.<domain>`) and asks for the check, or the operator approves it on the command
// line (`labstock admin sso approve-domain`). Without the proof, any tenant could list another's domain and
// receive its people.

const TXT_PREFIX = '_labstock-verification.';
const VALUE_PREFIX = 'labstock-domain-verification=';
const DNS_TIMEOUT_MS = 5000;

const txtName = (domain: string) => `${TXT_PREFIX}${domain}`;
const txtValue = (row: SsoDomainsTable) => `${VALUE_PREFIX}${row.verification_token}`;

function present(row: SsoDomainsTable): SsoDomain {
  return {
    domain: row.domain,
    status: row.verified_at ? 'verified' : 'pending',
    verified_at: row.verified_at,
    verified_by: row.verified_by,
    txt_name: txtName(row.domain),
    txt_value: txtValue(row),
  };
}

/**
 * Makes an organization's claims match its allowed domains, inside the caller's transaction: claims the new ones
 * (unverified), releases the dropped ones. A domain another organization holds is a 409 naming the field.
 */
export async function syncClaims(trx: Executor, organizationId: string, domains: string[]): Promise<void> {
  await repo.releaseDomains(trx, organizationId, domains);
  const taken: FieldError[] = [];
  // Claimed in sorted order: two transactions claiming overlapping sets on PostgreSQL lock in the same order.
  for (const domain of [...domains].sort()) {
    const row = { domain, organization_id: organizationId, created_at: nowIso() };
    const inserted = await repo.claimDomain(trx, {
      ...row,
      verification_token: randomBytes(24).toString('base64url'),
      verified_at: null,
      verified_by: null,
    });
    if (inserted) continue;
    const holder = await repo.findDomain(trx, domain);
    if (holder?.organization_id !== organizationId) {
      taken.push({ field: `allowed_domains[${domains.indexOf(domain)}]`, message: `${domain} is claimed by another organization` });
    }
  }
  if (taken.length > 0) {
    taken.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
    throw new AppError('conflict', taken.map((e) => `${e.field}: ${e.message}`).join('; '), { errors: taken });
  }
}

export async function releaseAllClaims(trx: Executor, organizationId: string): Promise<void> {
  await repo.releaseDomains(trx, organizationId, []);
}

export async function listSsoDomains(db: Executor, actor: Actor): Promise<SsoDomain[]> {
  requireAdmin(actor);
  return (await repo.listDomains(db, actor.organizationId)).map(present);
}

const normalize = (domain: string) => domain.trim().toLowerCase().replace(/^@/, '');

async function claimOf(db: Executor, organizationId: string, domain: string): Promise<SsoDomainsTable> {
  const row = await repo.findDomain(db, normalize(domain));
  if (!row || row.organization_id !== organizationId) throw notFound('SSO domain');
  return row;
}

/** The TXT strings at a name; none when the name or the record does not exist. */
async function lookupTxt(name: string, servers: string[]): Promise<string[]> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  try {
    if (servers.length > 0) resolver.setServers(servers);
  } catch (error) {
    // A configuration mistake: said to the admin who asked, and in the log through the error's message.
    throw new AppError('domain_not_verified', `SSO_DNS_SERVERS is not a list of DNS server addresses: ${(error as Error).message}`);
  }
  try {
    // A TXT record may be split in several character-strings: they are one value joined (RFC 7208, 3.3).
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw new AppError('domain_not_verified', `The DNS lookup of ${name} failed (${code ?? 'error'}); try again later`);
  }
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** POST /organization/sso/domains/{domain}/verify: resolves the TXT record now; verified, or 422. */
export async function verifySsoDomain(db: Executor, actor: Actor, domain: string, dnsServers: string[]): Promise<SsoDomain> {
  requireAdmin(actor);
  const row = await claimOf(db, actor.organizationId, domain);
  if (row.verified_at) return present(row);
  const values = await lookupTxt(txtName(row.domain), dnsServers);
  if (!values.some((value) => sameText(value.trim(), txtValue(row)))) {
    throw new AppError(
      'domain_not_verified',
      `No TXT record ${txtName(row.domain)} with the value ${txtValue(row)} was found; publish it and try again (DNS changes may take a while)`,
    );
  }
  await repo.markVerified(db, { domain: row.domain, organizationId: actor.organizationId }, 'dns', nowIso());
  return present(await claimOf(db, actor.organizationId, row.domain));
}

/** `labstock admin sso approve-domain`: the installation's operator vouches for an organization's claim. */
export async function approveSsoDomain(db: Executor, _who: SystemActor, organizationId: string, domain: string): Promise<SsoDomain> {
  const row = await repo.findDomain(db, normalize(domain));
  if (!row) throw notFound(`A claim of ${normalize(domain)} (the organization lists it in allowed_domains first)`);
  if (row.organization_id !== organizationId) {
    throw new AppError('conflict', `${row.domain} is claimed by another organization (${row.organization_id})`);
  }
  await repo.markVerified(db, { domain: row.domain, organizationId }, 'operator', nowIso());
  return present((await repo.findDomain(db, row.domain))!);
}

/** The organization whose verified claim covers this domain, if any: the one sign-in by e-mail goes to. */
export const organizationForDomain = (db: Executor, domain: string) => repo.verifiedOwner(db, normalize(domain));

export const verifiedDomainsOf = (db: Executor, organizationId: string) => repo.verifiedDomains(db, organizationId);
