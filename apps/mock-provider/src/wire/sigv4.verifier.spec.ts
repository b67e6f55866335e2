import { createHash } from 'node:crypto';
import { awsUriEncode, computeSignature, verifySigV4 } from './sigv4.verifier';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SUITE = {
  method: 'GET',
  rawPath: '/',
  rawQuery: '',
  headers: { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z' },
  signedHeaders: ['host', 'x-amz-date'],
  payloadSha256: EMPTY_SHA256,
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  amzDate: '20150830T123600Z',
  region: 'us-east-1',
  service: 'service',
};

describe('computeSignature (published AWS vectors)', () => {
  it('get-vanilla', () => {
    expect(computeSignature(SUITE).signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('get-vanilla-query-order-key-case', () => {
    expect(computeSignature({ ...SUITE, rawQuery: 'Param2=value2&Param1=value1' }).signature).toBe('b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500');
  });

  it('post-vanilla', () => {
    expect(computeSignature({ ...SUITE, method: 'POST' }).signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('S3 GET Object example', () => {
    const result = computeSignature({
      method: 'GET',
      rawPath: '/test.txt',
      rawQuery: '',
      headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256, 'x-amz-date': '20130524T000000Z' },
      signedHeaders: ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'],
      payloadSha256: EMPTY_SHA256,
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      amzDate: '20130524T000000Z',
      region: 'us-east-1',
      service: 's3',
    });
    expect(result.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });

  it('signs the request-line path encoded a second time (non-S3 rule)', () => {
    expect(computeSignature({ ...SUITE, rawPath: '/model/a.b-v1%3A0/converse' }).canonicalRequest.split('\n')[1]).toBe('/model/a.b-v1%253A0/converse');
  });
});

describe('awsUriEncode', () => {
  it('keeps unreserved characters and encodes bytes with uppercase hex', () => {
    expect(awsUriEncode("AZaz09-._~ /:!'()*é")).toBe('AZaz09-._~%20%2F%3A%21%27%28%29%2A%C3%A9');
  });
});

describe('verifySigV4', () => {
  const key = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret/key+1' };
  const now = Date.UTC(2025, 0, 2, 3, 4, 5);
  const body = Buffer.from('{"messages":[]}');

  function signed(overrides: { body?: Buffer; secret?: string; amzDate?: string; path?: string } = {}) {
    const amzDate = overrides.amzDate ?? '20250102T030405Z';
    const headers: Record<string, string> = { host: 'mock:8090', 'content-type': 'application/json', 'x-amz-date': amzDate };
    const rawPath = '/model/anthropic.claude-v2%3A1/converse';
    const { signature } = computeSignature({
      method: 'POST',
      rawPath: overrides.path ?? rawPath,
      rawQuery: '',
      headers,
      signedHeaders: ['content-type', 'host', 'x-amz-date'],
      payloadSha256: createHash('sha256').update(body).digest('hex'),
      secretAccessKey: overrides.secret ?? key.secretAccessKey,
      amzDate,
      region: 'eu-west-1',
      service: 'bedrock',
    });
    headers.authorization = `AWS4-HMAC-SHA256 Credential=AKIDTEST/${amzDate.slice(0, 8)}/eu-west-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=${signature}`;
    return { method: 'POST', rawPath, rawQuery: '', headers, body: overrides.body ?? body };
  }

  it('accepts a correctly signed request and reports its region', () => {
    expect(verifySigV4(signed(), [key], 'bedrock', now)).toEqual({ region: 'eu-west-1' });
  });

  it.each([
    ['a tampered body', { body: Buffer.from('{"messages":[1]}') }, 'does not match'],
    ['a wrong secret', { secret: 'other' }, 'does not match'],
    ['a path signed without the second encoding', { path: '/model/anthropic.claude-v2:1/converse' }, 'does not match'],
    ['an old signature', { amzDate: '20250102T025000Z' }, 'Signature expired'],
  ])('rejects %s with 403', (_name, overrides, message) => {
    expect(() => verifySigV4(signed(overrides), [key], 'bedrock', now)).toThrow(expect.objectContaining({ status: 403, body: { message: expect.stringContaining(message) } }));
  });

  it('rejects missing auth and unknown access keys like AWS', () => {
    expect(() => verifySigV4({ method: 'POST', rawPath: '/', rawQuery: '', headers: {}, body }, [key], 'bedrock', now)).toThrow(
      expect.objectContaining({ body: { message: 'Missing Authentication Token' } }),
    );
    expect(() => verifySigV4(signed(), [{ accessKeyId: 'OTHER', secretAccessKey: 'x' }], 'bedrock', now)).toThrow(
      expect.objectContaining({ body: { message: 'The security token included in the request is invalid.' } }),
    );
  });
});
