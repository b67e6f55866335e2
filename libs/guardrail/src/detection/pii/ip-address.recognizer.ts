import { isIPv6 } from 'node:net';
import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';

/**
 * Public IP addresses identify a subscriber under GDPR. Loopback, unspecified, broadcast,
 * multicast, private (RFC 1918) and link-local addresses identify nobody outside a local
 * network and are skipped, as are dotted version numbers ("v1.2.3.4").
 */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\d.\\w])${OCTET}(?:\\.${OCTET}){3}(?![\\d\\w]|\\.\\d)`, 'g');
const IPV6_CANDIDATE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f.]{0,15}(?![\w:])/g;
const VERSION_CONTEXT = /(?:\bv|version|ver\.?|release|build|firmware|release|update|oid|rev\.?|§)\s*$/i;
const CONTEXT = /(?:\bip\b|ip address|ipv[46]|address|host|server|client|remote|source|origin|logged in from|connection from|adresse|direcci[oó]n|indirizzo|endere[cç]o)/i;

function ipv4Confidence(address: string): number {
  const [a, b] = address.split('.').map(Number) as [number, number];
  if (a === 127 || a === 0 || a === 255 || address === '255.255.255.255') return 0;
  if (a >= 224) return 0; // multicast and reserved
  const privateRange = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  return privateRange ? 0 : 0.75;
}

export function recognizeIpAddresses(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  IPV4.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (text.includes('.') && (match = IPV4.exec(text)) !== null) {
    const start = match.index;
    if (VERSION_CONTEXT.test(text.slice(Math.max(0, start - 12), start))) continue;
    const confidence = ipv4Confidence(match[0]);
    if (confidence === 0) continue;
    found.push({ type: 'ip_address', start, end: start + match[0].length, confidence: boosted(confidence, contextBefore(text, start, CONTEXT, 32)) });
  }
  // IPv6 needs two colons close together; most text has none, and the scan is not free.
  if (!/:[0-9A-Fa-f]{0,4}:/.test(text)) return found;
  IPV6_CANDIDATE.lastIndex = 0;
  while ((match = IPV6_CANDIDATE.exec(text)) !== null) {
    let candidate = match[0];
    while (candidate.endsWith('.')) candidate = candidate.slice(0, -1);
    if (!isIPv6(candidate)) continue;
    const groups = candidate.split(':').filter((group) => group.length > 0);
    const hexDigits = groups.join('').replace(/\./g, '').length;
    // Short forms like "::1" or "a::b" are loopback or code ("std::" is excluded by the boundary).
    if (groups.length < 3 || hexDigits < 6 || !/\d/.test(candidate)) continue;
    // Link-local (fe80::/10) and unique-local (fc00::/7) addresses stay inside a network.
    if (/^(?:fe[89ab]|f[cd])/i.test(candidate)) continue;
    const start = match.index;
    found.push({ type: 'ip_address', start, end: start + candidate.length, confidence: boosted(0.7, contextBefore(text, start, CONTEXT, 32)) });
  }
  return found;
}
