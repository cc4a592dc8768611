import { lookup as resolve, type LookupAddress } from 'node:dns';
import { BlockList, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * Addresses our outbound calls (a client's webhook_url, a merchant's store) must not reach (SSRF): our
 * own host, the private network behind us, cloud metadata (169.254.169.254) and everything that is not
 * a unicast internet address.
 */
const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, deprecated IPv4-compatible
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (zone id removed), or null when it is none. */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  if (!isIPv6(text)) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The IPv4 address carried inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) address. */
function embeddedIPv4(groups: number[]): string | null {
  const prefix = groups.slice(0, 6).join(':');
  if (prefix !== '0:0:0:0:0:65535' && prefix !== `${0x64}:${0xff9b}:0:0:0:0`) return null;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether an IP address (v4 or v6, as resolved or written in a URL) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !notPublic.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return false; // not an IP address at all: nothing to allow
  const v4 = embeddedIPv4(groups);
  if (v4 !== null) return isPublicAddress(v4);
  return !notPublic.check(groups.map((group) => group.toString(16)).join(':'), 'ipv6');
}

/** A host that resolves to an address we must not call (outside OUTBOUND_ALLOW_PRIVATE). */
export class AddressNotAllowedError extends Error {}

/**
 * Resolves a host name once, refuses it when any of its addresses is not public, and hands exactly
 * the checked addresses to the connection: no second resolution a DNS rebinding could answer differently.
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(
      hostname,
      { family: options.family, hints: options.hints, all: true },
      (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (error) return callback(error, '');
        const refused = addresses.filter(({ address }) => !isPublicAddress(address));
        if (!allowPrivate && refused.length > 0) {
          return callback(new AddressNotAllowedError(`${hostname} resolves to ${refused.map(({ address }) => address).join(', ')}`), '');
        }
        const [first] = addresses;
        if (!first) return callback(new Error(`${hostname} resolves to no address`), '');
        return options.all ? callback(null, addresses) : callback(null, first.address, first.family);
      },
    );
  };
}
