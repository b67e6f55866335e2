import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Connection-level headers (RFC 9110 §7.6.1): they describe one hop and are never relayed. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

// Forwarding headers are set from what this server saw, never copied from the caller.
const REQUEST_SKIP = new Set([...HOP_BY_HOP, 'host', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip']);

function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  const list = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(list.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}

export interface ForwardedFor {
  /** The caller's address as this server determined it (socket, or a trusted proxy's header). */
  clientIp: string;
  /** `http` or `https` as the caller used it. */
  protocol: string;
  /** The Host the caller asked for. */
  host: string | undefined;
}

/**
 * Request headers for the edge: the caller's own (cookie, content type and length, accept,
 * user agent, traceparent, ...) minus hop-by-hop ones, plus X-Forwarded-For with the caller's
 * address so the edge audits and throttles the real client, not this server.
 */
export function upstreamRequestHeaders(headers: IncomingHttpHeaders, forwarded: ForwardedFor): OutgoingHttpHeaders {
  const named = connectionTokens(headers);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || REQUEST_SKIP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  out['x-forwarded-for'] = forwarded.clientIp;
  out['x-forwarded-proto'] = forwarded.protocol;
  if (forwarded.host) out['x-forwarded-host'] = forwarded.host;
  return out;
}

/**
 * Response headers for the browser: everything the edge said (Set-Cookie included, as a list)
 * minus hop-by-hop ones. Bodies pass through unchanged, so Content-Length and Content-Encoding stay valid.
 */
export function downstreamResponseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = connectionTokens(headers);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * A state-changing request sent by another site's page: refused before it reaches the edge
 * (defence in depth beside the SameSite session cookie). Requests without Origin (curl, server
 * code) are not browsers acting for someone else and pass.
 */
export function isCrossSiteWrite(method: string, origin: string | undefined, host: string | undefined): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return false;
  if (!origin) return false;
  if (!host) return true;
  try {
    return new URL(origin).host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}
