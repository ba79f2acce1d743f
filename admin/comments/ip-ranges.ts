// Addresses a webmention source may not resolve to (CONTRACT §8: loopback, private and
// link-local, v4 and v6, IPv4 inside IPv6 too), unless WEBMENTION_ALLOW_PRIVATE=on.
// Checked on the resolved address, never the name: a public name can point anywhere.
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped, translated, compatible, NAT64, 6to4), if any. */
function embeddedV4(v6: string): string | null {
  const full = expandV6(v6);
  if (!full) return null;
  const words = full.split(':').map((w) => parseInt(w, 16));
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => words.slice(0, n).every((w) => w === 0);
  if (zeros(5) && words[5] === 0xffff) return v4(words[6]!, words[7]!); // ::ffff:a.b.c.d
  if (zeros(6)) return v4(words[6]!, words[7]!); // ::a.b.c.d (compatible)
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!); // NAT64
  // RFC 8215 local-use NAT64 (64:ff9b:1::/48): the IPv4 address is the last 32 bits on a host that translates it.
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return v4(words[6]!, words[7]!);
  if (zeros(4) && words[4] === 0xffff && words[5] === 0) return v4(words[6]!, words[7]!); // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!); // 6to4
  return null;
}

/** Eight groups of hex, or null when it is not an IPv6 address. */
export function expandV6(address: string): string | null {
  let a = address.toLowerCase().replace(/%[^]*$/, '');
  const dotted = /(?<!\d)(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    a = a.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : null;
  const groups = t === null ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.length === 8 && groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups.join(':') : null;
}

/** True for an address a source must not be fetched from (not an IP address at all: true too). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%[^]*$/, ''));
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const bare = address.replace(/%[^]*$/, '');
  if (blocked.check(bare, 'ipv6')) return true;
  const v4 = embeddedV4(bare);
  return v4 !== null && blocked.check(v4, 'ipv4');
}
