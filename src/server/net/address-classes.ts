/**
 * What kind of network an IP address belongs to, for the outbound policy. Ranges live in
 * node:net BlockLists (which also match IPv4-mapped IPv6 such as ::ffff:127.0.0.1 and
 * ::ffff:7f00:1 against the IPv4 rules); every IPv4 rule is mirrored into the NAT64 (64:ff9b::/96)
 * and 6to4 (2002::/16) prefixes, which carry an IPv4 address inside an IPv6 one.
 *
 * - link-local: 169.254/16 and fe80::/10 plus the cloud metadata and platform addresses outside
 *   them (Alibaba 100.100.100.200, Azure 168.63.129.16, AWS fd00:ec2::/32). Never reachable.
 * - reserved: "this network", multicast, broadcast, documentation and other special-purpose
 *   ranges, IPv4-compatible IPv6 and Teredo. Never reachable.
 * - private: loopback, RFC 1918, CGNAT, benchmarking, unique-local and site-local IPv6,
 *   local-use NAT64. Reachable only when the operator allows private networks.
 * Checked in that order, so a metadata address inside a private range stays link-local.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'public' | 'private' | 'link-local' | 'reserved';

type Range = readonly [address: string, prefix: number];

const V4: Record<Exclude<AddressClass, 'public'>, Range[]> = {
  'link-local': [
    ['169.254.0.0', 16],
    ['100.100.100.200', 32],
    ['168.63.129.16', 32],
  ],
  private: [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
    ['198.18.0.0', 15],
  ],
  reserved: [
    ['0.0.0.0', 8],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4], // includes the broadcast address 255.255.255.255
  ],
};

const V6: Record<Exclude<AddressClass, 'public'>, Range[]> = {
  'link-local': [
    ['fe80::', 10],
    ['fd00:ec2::', 32],
  ],
  private: [
    ['::1', 128],
    ['fc00::', 7],
    ['fec0::', 10],
    ['64:ff9b:1::', 48],
  ],
  reserved: [
    ['::', 96], // the unspecified address and IPv4-compatible addresses (::1 is matched as private first)
    ['100::', 64],
    ['2001::', 32],
    ['2001:db8::', 32],
    ['ff00::', 8],
  ],
};

/** `a.b.c.d` of one of the constant ranges above as two IPv6 groups, e.g. 127.0.0.0 -> 7f00:0. */
function v4Groups(address: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function blockListOf(cls: Exclude<AddressClass, 'public'>): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of V4[cls]) {
    list.addSubnet(address, prefix, 'ipv4');
    list.addSubnet(`64:ff9b::${address}`, 96 + prefix, 'ipv6');
    list.addSubnet(`2002:${v4Groups(address)}::`, 16 + prefix, 'ipv6');
  }
  for (const [address, prefix] of V6[cls]) list.addSubnet(address, prefix, 'ipv6');
  return list;
}

const ORDER = ['link-local', 'private', 'reserved'] as const;
const LISTS = ORDER.map((cls) => [cls, blockListOf(cls)] as const);

/**
 * The class of an IP address in canonical or any other form node:net accepts. Anything that is not
 * an IP address is 'reserved': the policy fails closed. A zone index (fe80::1%eth0) only makes
 * sense for link-local addresses, so a zoned address that would otherwise be public is reserved.
 */
export function classifyAddress(address: string): AddressClass {
  const zone = address.indexOf('%');
  const bare = zone >= 0 ? address.slice(0, zone) : address;
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of LISTS) if (list.check(bare, type)) return cls;
  return zone >= 0 ? 'reserved' : 'public';
}
