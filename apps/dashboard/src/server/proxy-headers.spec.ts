import { downstreamResponseHeaders, isCrossSiteWrite, upstreamRequestHeaders } from './proxy-headers';

describe('upstreamRequestHeaders', () => {
  const forwarded = { clientIp: '203.0.113.9', protocol: 'https', host: 'console.example.com' };

  it('keeps the session cookie and the body headers and sets the forwarding headers from what the server saw', () => {
    const out = upstreamRequestHeaders(
      { cookie: 'gw_session=abc', 'content-type': 'application/json', 'content-length': '12', 'user-agent': 'UA', host: 'console.example.com', 'x-forwarded-for': '10.0.0.1', forwarded: 'for=10.0.0.1' },
      forwarded,
    );
    expect(out).toEqual({
      cookie: 'gw_session=abc',
      'content-type': 'application/json',
      'content-length': '12',
      'user-agent': 'UA',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'console.example.com',
    });
  });

  it('drops hop-by-hop headers, also those named in Connection', () => {
    const out = upstreamRequestHeaders({ connection: 'keep-alive, x-private', 'keep-alive': 'timeout=5', 'x-private': '1', te: 'trailers', 'transfer-encoding': 'chunked', accept: '*/*' }, { ...forwarded, host: undefined });
    expect(out).toEqual({ accept: '*/*', 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
  });
});

describe('downstreamResponseHeaders', () => {
  it('keeps every Set-Cookie and the body headers, drops hop-by-hop ones', () => {
    const out = downstreamResponseHeaders({
      'set-cookie': ['gw_session=abc; Path=/; HttpOnly; SameSite=Lax', 'other=1'],
      'content-type': 'application/json',
      'content-length': '2',
      connection: 'close',
      'transfer-encoding': 'chunked',
      'retry-after': '1',
    });
    expect(out).toEqual({ 'set-cookie': ['gw_session=abc; Path=/; HttpOnly; SameSite=Lax', 'other=1'], 'content-type': 'application/json', 'content-length': '2', 'retry-after': '1' });
  });
});

describe('isCrossSiteWrite', () => {
  it('refuses writes whose Origin is another host', () => {
    expect(isCrossSiteWrite('POST', 'https://evil.example', 'console.example.com')).toBe(true);
    expect(isCrossSiteWrite('DELETE', 'null', 'console.example.com')).toBe(true);
  });

  it('lets same-origin writes, reads and requests without Origin through', () => {
    expect(isCrossSiteWrite('POST', 'http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(false);
    expect(isCrossSiteWrite('GET', 'https://evil.example', 'console.example.com')).toBe(false);
    expect(isCrossSiteWrite('PATCH', undefined, 'console.example.com')).toBe(false);
  });
});
