import { isIP } from 'node:net';

export const MAX_BLOCKED_IPS = 1_000;

/**
 * Validates and normalizes an IP block list: IPv4/IPv6 addresses and CIDRs (`10.0.0.0/8`,
 * `2001:db8::/32`). Duplicates are dropped, order kept. Answers the normalized list or the
 * messages of every bad entry.
 */
export function normalizeIpList(entries: string[]): { ips: string[]; errors: string[] } {
  const errors: string[] = [];
  const ips: string[] = [];
  if (entries.length > MAX_BLOCKED_IPS) errors.push(`Blocked IPs are too many (maximum is ${MAX_BLOCKED_IPS})`);
  for (const raw of entries) {
    const entry = String(raw).trim();
    const [address, prefix, extra] = entry.split('/');
    const version = isIP(address ?? '');
    let valid = version !== 0 && extra === undefined;
    if (valid && prefix !== undefined) {
      const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      valid = Number.isInteger(bits) && bits >= 0 && bits <= (version === 4 ? 32 : 128);
    }
    if (!valid) {
      errors.push(`Invalid IP address or CIDR: ${entry.slice(0, 100)}`);
      continue;
    }
    const normalized = prefix === undefined ? address.toLowerCase() : `${address.toLowerCase()}/${Number(prefix)}`;
    if (!ips.includes(normalized)) ips.push(normalized);
  }
  return { ips, errors };
}
