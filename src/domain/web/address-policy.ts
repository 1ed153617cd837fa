import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which resolved addresses the fetcher may connect to. Only ordinary public unicast passes:
 * ipaddr.js names every special-purpose range (private, loopback, link-local, carrier-grade
 * NAT, multicast, unique-local, IPv4-mapped and the other IPv6 transition ranges that embed an
 * IPv4 address, documentation and reserved blocks), and each of those is refused. Allowing a
 * list of good ranges rather than listing bad ones means a range we did not think of is
 * refused, not fetched.
 */

/** Cloud instance metadata endpoints: named apart so the refusal says what was at stake. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '169.254.169.253', '100.100.100.200', 'fd00:ec2::254']);

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's range name, or `metadata`. */
  range: string;
}

export interface AddressPolicyOptions {
  /** Tests serve pages on loopback; this lets 127.0.0.0/8 and ::1 through and nothing else. */
  allowLoopback: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

export function isIpLiteral(host: string): boolean {
  return isIP(host) !== 0;
}

export function checkAddress(address: string, { allowLoopback }: AddressPolicyOptions): AddressVerdict {
  if (!isIpLiteral(address)) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(address);
  const normal = parsed.toNormalizedString();
  if (METADATA_ADDRESSES.has(parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).toRFC5952String() : normal)) {
    return { allowed: false, range: 'metadata' };
  }
  const range = parsed.range();
  // ipaddr.js calls every IPv6 address outside its named ranges "unicast", including the
  // deprecated IPv4-compatible form (::a.b.c.d, which URL parsers produce from [::127.0.0.1])
  // and other unassigned space. Only global unicast (2000::/3) is reachable on purpose.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) {
    return { allowed: false, range: 'reserved' };
  }
  if (range === 'unicast') return { allowed: true, range };
  if (range === 'loopback' && allowLoopback) return { allowed: true, range };
  return { allowed: false, range };
}

const RANGE_WORDS: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  reserved: 'a reserved address',
};

/** `a private address`, `a link-local address`, … for refusal texts. */
export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}
