import { normalizeIpList } from './ip-list';

describe('normalizeIpList', () => {
  it('accepts IPv4/IPv6 addresses and CIDRs, de-duplicated', () => {
    expect(normalizeIpList(['10.0.0.1', ' 10.0.0.0/8 ', '2001:DB8::1', '2001:db8::/32', '10.0.0.1'])).toEqual({
      ips: ['10.0.0.1', '10.0.0.0/8', '2001:db8::1', '2001:db8::/32'],
      errors: [],
    });
  });

  it('names every bad entry', () => {
    expect(normalizeIpList(['300.1.1.1', '10.0.0.0/33', 'fe80::/129', 'example.com', '1.2.3.4/8/9', '1.2.3.4/x']).errors).toEqual([
      'Invalid IP address or CIDR: 300.1.1.1',
      'Invalid IP address or CIDR: 10.0.0.0/33',
      'Invalid IP address or CIDR: fe80::/129',
      'Invalid IP address or CIDR: example.com',
      'Invalid IP address or CIDR: 1.2.3.4/8/9',
      'Invalid IP address or CIDR: 1.2.3.4/x',
    ]);
  });
});
