import { createOutboundGuard } from './outbound-url.guard';

describe('createOutboundGuard', () => {
  const guard = createOutboundGuard();
  const allowed = (url: string) => guard(new URL(url)).allowed;

  it('allows public, loopback and private hosts', () => {
    expect(allowed('https://api.openai.com/v1')).toBe(true);
    expect(allowed('http://127.0.0.1:8090/v1')).toBe(true);
    expect(allowed('http://10.0.3.4:8000/v1')).toBe(true);
    expect(allowed('http://[::1]:8000/v1')).toBe(true);
    expect(allowed('http://vllm.internal:8000')).toBe(true);
  });

  it('refuses link-local addresses in every spelling', () => {
    expect(allowed('http://169.254.169.254/latest/meta-data')).toBe(false);
    expect(allowed('http://169.254.10.1/')).toBe(false);
    expect(allowed('http://2852039166/')).toBe(false); // decimal form of 169.254.169.254
    expect(allowed('http://0xa9fea9fe/')).toBe(false);
    expect(allowed('http://[fe80::1]/')).toBe(false);
    expect(allowed('http://[febf::1]/')).toBe(false);
    expect(allowed('http://[::ffff:169.254.169.254]/')).toBe(false);
  });

  it('refuses cloud metadata host names and non-http schemes', () => {
    expect(allowed('http://metadata.google.internal/computeMetadata/v1')).toBe(false);
    expect(allowed('http://METADATA.GOOGLE.INTERNAL./')).toBe(false);
    expect(allowed('http://100.100.100.200/')).toBe(false);
    expect(allowed('http://[fd00:ec2::254]/')).toBe(false);
    expect(allowed('file:///etc/passwd')).toBe(false);
  });

  it('narrows to allowedHosts when given, with *.suffix entries', () => {
    const narrow = createOutboundGuard(['api.openai.com', '*.openai.azure.com']);
    expect(narrow(new URL('https://api.openai.com/v1')).allowed).toBe(true);
    expect(narrow(new URL('https://res.openai.azure.com/')).allowed).toBe(true);
    expect(narrow(new URL('https://openai.azure.com/')).allowed).toBe(false);
    expect(narrow(new URL('https://evil.example/')).allowed).toBe(false);
  });
});
