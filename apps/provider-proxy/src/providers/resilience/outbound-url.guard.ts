import { isIP } from 'node:net';

/**
 * SSRF guard for registry base URLs. Loopback and private ranges stay allowed (self-hosted and
 * VPC models are the point of `internal`), but link-local addresses and cloud metadata endpoints
 * never are: they hand out instance credentials.
 *
 * Only the URL's host is checked, not what a hostname resolves to; a DNS name pointing at
 * 169.254.169.254 is not caught here and belongs to the network policy.
 */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.tencentyun.com',
  '100.100.100.200', // Alibaba Cloud
  '169.254.169.254',
  'fd00:ec2::254', // AWS IMDS over IPv6
]);

export type OutboundCheck = { allowed: true } | { allowed: false; reason: string };

export function createOutboundGuard(allowedHosts?: string[]): (url: URL) => OutboundCheck {
  const allowList = allowedHosts?.map((host) => host.trim().toLowerCase()).filter((host) => host !== '');
  return (url) => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { allowed: false, reason: 'only http and https are allowed' };
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (METADATA_HOSTS.has(host)) return { allowed: false, reason: 'cloud metadata host' };
    if (isLinkLocal(host)) return { allowed: false, reason: 'link-local address' };
    if (allowList && allowList.length > 0 && !allowList.some((entry) => hostMatches(host, entry))) {
      return { allowed: false, reason: 'host not in the allowed list' };
    }
    return { allowed: true };
  };
}

function hostMatches(host: string, entry: string): boolean {
  if (entry.startsWith('*.')) return host.endsWith(entry.slice(1)) && host.length > entry.length - 1;
  return host === entry;
}

/** 169.254.0.0/16, fe80::/10, and IPv4 link-local embedded in IPv4-mapped IPv6. */
export function isLinkLocal(host: string): boolean {
  const version = isIP(host);
  if (version === 4) return host.startsWith('169.254.');
  if (version !== 6) return false;
  const first = parseInt(host.split(':')[0] || '0', 16);
  if ((first & 0xffc0) === 0xfe80) return true;
  // WHATWG URL normalises ::ffff:169.254.169.254 to ::ffff:a9fe:a9fe.
  const mapped = /^(?:0*:)*:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (!mapped) return false;
  if (mapped.length === 2) return mapped[1].startsWith('169.254.');
  return (parseInt(mapped[1], 16) & 0xffff) === 0xa9fe;
}
