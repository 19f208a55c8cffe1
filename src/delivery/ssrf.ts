import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// docs/product.md §8: the address actually connected to must be public unicast. The check runs on the resolved address
// inside the connection's own DNS lookup, so a name cannot resolve to a public address when checked and a
// private one when connected (no rebinding gap). WEBHOOK_ALLOWED_CIDRS opens ranges on purpose.

type Addr = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Addr, number];

export function parseCidrs(list: string[]): Cidr[] {
  return list.map((c) => ipaddr.parseCIDR(c));
}

function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (addr.isIPv4MappedAddress()) return addr.toIPv4Address();
  const range = addr.range();
  const bytes = addr.toByteArray();
  // NAT64 (64:ff9b::/96, RFC 6052) and SIIT (::ffff:0:0:0/96, RFC 6145) carry the IPv4 address in the last 32 bits.
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4(bytes.slice(12, 16));
  // 6to4 (2002::/16) carries it in bits 16-48.
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // The deprecated IPv4-compatible form ::a.b.c.d (::/96), which ipaddr.js calls unicast.
  if (bytes.slice(0, 12).every((b) => b === 0) && range !== 'unspecified' && range !== 'loopback')
    return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function matchesAny(addr: Addr, cidrs: Cidr[]): boolean {
  return cidrs.some(([net, bits]) => addr.kind() === net.kind() && addr.match(net as never, bits));
}

/** Why an address may not be connected to, or null when it may. */
export function blockedReason(address: string, allowed: Cidr[] = []): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let addr: Addr = ipaddr.parse(address);
  if (matchesAny(addr, allowed)) return null;
  if (addr.kind() === 'ipv6') {
    const v4 = embeddedIPv4(addr as ipaddr.IPv6);
    if (v4) {
      if (matchesAny(v4, allowed)) return null;
      addr = v4;
    }
  }
  const range = addr.range();
  // IPv6 must also be in the global unicast block 2000::/3; anything ipaddr.js does not name is still refused.
  const globalV6 = addr.kind() === 'ipv4' || addr.match(GLOBAL_UNICAST_V6 as never);
  if (range === 'unicast' && globalV6) return null;
  return `${address} is a ${range === 'unicast' ? 'non-global' : range} address; webhooks may only reach public unicast addresses`;
}

/** Host names that name this machine whatever DNS says. */
export const isLocalName = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain';
};

/** The host of a URL without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/**
 * What can be said of a URL before any DNS lookup: a literal blocked address or a local name. Used to refuse
 * such webhooks at create/update (422); the connect-time check still applies to every delivery.
 */
export function literalTargetProblem(rawUrl: string, allowed: Cidr[]): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return blockedReason(host, allowed);
  if (isLocalName(host)) {
    const loopbackAllowed = matchesAny(ipaddr.parse('127.0.0.1'), allowed) || matchesAny(ipaddr.parse('::1'), allowed);
    return loopbackAllowed ? null : `${host} names this machine; webhooks may only reach public addresses`;
  }
  return null;
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** A net/tls `lookup` that resolves, then refuses blocked addresses: the guard at connect time. */
export function guardedLookup(allowed: Cidr[]): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const ok = list.filter((a) => blockedReason(a.address, allowed) === null);
      if (ok.length === 0) {
        const first = list[0];
        return callback(
          new BlockedAddressError(
            first ? `${hostname} resolves to ${blockedReason(first.address, allowed)}` : `${hostname} did not resolve`,
          ),
        );
      }
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  }) as LookupFunction;
}
