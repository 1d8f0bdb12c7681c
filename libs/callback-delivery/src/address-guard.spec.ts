import { isPrivateAddress, refusedWebhookUrl } from './address-guard';

describe('isPrivateAddress', () => {
  it.each([
    ['10.0.0.1', 'RFC 1918 10/8'],
    ['10.255.255.255', 'RFC 1918 10/8'],
    ['172.16.0.1', 'RFC 1918 172.16/12'],
    ['172.31.255.255', 'RFC 1918 172.16/12'],
    ['192.168.1.1', 'RFC 1918 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this host'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses IPv4 %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, long form'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456:789a::1', 'unique local fc00::/7'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local, top of fc00::/7'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf:ffff::1', 'link-local, top of fe80::/10'],
    ['FE80::ABCD', 'link-local, upper case'],
    ['ff02::1', 'multicast'],
    ['::7f00:1', 'IPv4-compatible ::/96 (what [::127.0.0.1] becomes)'],
    ['::a00:1', 'IPv4-compatible ::/96 (10.0.0.1)'],
    ['::808:808', 'IPv4-compatible ::/96, even around a public address'],
    ['::ffff:0:7f00:1', 'SIIT ::ffff:0:0:0/96 (what [::ffff:0:127.0.0.1] becomes)'],
    ['::ffff:0:808:808', 'SIIT ::ffff:0:0:0/96, even around a public address'],
  ])('refuses IPv6 %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['::ffff:10.0.0.1', 'dotted'],
    ['::FFFF:127.0.0.1', 'dotted, upper case'],
    ['::ffff:a00:1', 'hex (10.0.0.1)'],
    ['::ffff:7f00:1', 'hex (127.0.0.1)'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'long form (169.254.169.254)'],
  ])('refuses the IPv4-mapped IPv6 address %s (%s) as the IPv4 address it wraps', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '11.0.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '192.169.0.1',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    'fec0::1',
    'fbff::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
  ])('allows the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(['localhost', 'merchant.example', '', '10.0.0', '::gg'])('leaves %j (not an IP literal) to the DNS lookup check', (value) => {
    expect(isPrivateAddress(value)).toBe(false);
  });
});

describe('isPrivateAddress: IPv6 forms that embed an IPv4 address', () => {
  it.each(['64:ff9b::a00:1', '64:ff9b::7f00:1', '2002:a00:1::1', '2002:c0a8:101::1'])('refuses %s (NAT64 or 6to4)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });
});

describe('refusedWebhookUrl', () => {
  it.each(['http://10.0.0.1/hooks', 'https://127.0.0.1:8443/', 'http://[::1]/', 'http://[::ffff:169.254.169.254]/', 'http://localhost:3000/', 'http://api.localhost/'])(
    'refuses %s where private addresses are not allowed',
    (url) => {
      expect(refusedWebhookUrl(url, false)).toMatch(/private, loopback or link-local/);
      expect(refusedWebhookUrl(url, true)).toBeUndefined();
    },
  );

  it('refuses credentials in the URL, other schemes and what is not a URL, wherever it runs', () => {
    expect(refusedWebhookUrl('https://user:pass@hooks.example/', true)).toMatch(/credentials/);
    expect(refusedWebhookUrl('ftp://hooks.example/', true)).toMatch(/http and https/);
    expect(refusedWebhookUrl('hooks.example/x', true)).toMatch(/not an absolute URL/);
  });

  it('allows a public name or address', () => {
    expect(refusedWebhookUrl('https://hooks.example/payouts', false)).toBeUndefined();
    expect(refusedWebhookUrl('https://8.8.8.8/payouts', false)).toBeUndefined();
  });
});
