import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * The address guard of webhook deliveries: an endpoint must not reach this server's own
 * network (a cloud metadata service, a database on the private network, the server itself)
 * unless WEBHOOK_ALLOW_PRIVATE=true says so. Checked on the resolved address, on save and at
 * every delivery; the delivery then connects to the address it checked (webhook-delivery.ts),
 * so a name that resolves elsewhere a moment later (DNS rebinding) changes nothing.
 */
const blocked = new net.BlockList();
for (const [network, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, the broadcast address included
  ['192.0.0.0', 24], // IETF protocol assignments (a cloud's metadata service among them)
  ['198.18.0.0', 15], // benchmarking, used inside some private networks
] as const) {
  blocked.addSubnet(network, bits, 'ipv4');
}
for (const [network, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // local-use NAT64: the IPv4 network behind it is a private one
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local, deprecated and still routed by some
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const part = (side: string) => (side === '' ? [] : side.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = rest === undefined ? [] : part(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) =>
  [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 one carries, if any: mapped (`::ffff:10.0.0.1`), translated
 * (`::ffff:0:10.0.0.1`), the deprecated compatible form (`::10.0.0.1`, `::1` included), NAT64's
 * well-known prefix (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/48`). Each reaches the IPv4
 * address on a network that routes it, so it is checked as that address.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return dotted(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return undefined;
}

/** Whether an IP address is private, loopback, link-local, unspecified or multicast. */
export function isPrivateAddress(address: string): boolean {
  const kind = net.isIP(address);
  if (kind === 4) return blocked.check(address, 'ipv4');
  if (kind !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Why an address may not be used: a sentence for the delivery's `error` and a 400. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** The host of a URL as a resolver or an IP check takes it (`[::1]` → `::1`). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The addresses `host` resolves to, every one of them checked: one private address refuses the
 * whole name (a receiver could otherwise get the connection sent to it). With `allowPrivate`
 * nothing is refused. Throws AddressRefused, or the resolver's error for a name it cannot find.
 */
export async function resolveAllowed(
  host: string,
  allowPrivate: boolean,
): Promise<ResolvedAddress[]> {
  const family = net.isIP(host);
  const addresses: ResolvedAddress[] =
    family === 0
      ? (await dns.lookup(host, { all: true, order: 'verbatim' })).map((a) => ({
          address: a.address,
          family: a.family === 6 ? 6 : 4,
        }))
      : [{ address: host, family: family === 6 ? 6 : 4 }];
  if (!allowPrivate) {
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      throw new AddressRefused(
        `${host} resolves to a private address (${refused.address}): set WEBHOOK_ALLOW_PRIVATE=true to allow it`,
      );
    }
  }
  return addresses;
}
