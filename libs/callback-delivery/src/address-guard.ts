import { BlockList, isIP } from 'node:net';

/** Addresses a merchant's callbackURL must not reach: this host, private networks, link-local, metadata. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // Prefixes that embed an IPv4 address: NAT64, 6to4, the deprecated IPv4-compatible ::/96 (::127.0.0.1
  // is ::7f00:1) and SIIT's ::ffff:0:0:0/96 (::ffff:0:127.0.0.1). None is a merchant's server.
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['::', 96],
  ['::ffff:0:0:0', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4 address wrapped in IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return blocked.check(address, 'ipv4');
}

/**
 * Why a webhook endpoint's URL is refused when it is set, or undefined. The sender checks the address
 * it connects to again on every attempt (callback-sender.ts); this refuses at once what can never be
 * called: a private address written as such, a local name, or credentials the delivery log would show.
 */
export function refusedWebhookUrl(url: string, allowPrivateAddresses: boolean): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'it is not an absolute URL';
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'only http and https URLs are called';
  if (target.username || target.password) return 'it carries credentials, which the delivery log would show; the signature authenticates each callback';
  if (allowPrivateAddresses) return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) return `${host} is a private, loopback or link-local address`;
  return undefined;
}
