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
] as const) {
  blocked.addSubnet(network, bits, 'ipv4');
}
for (const [network, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (`::ffff:10.0.0.1`, NAT64 `64:ff9b::a00:1`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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
