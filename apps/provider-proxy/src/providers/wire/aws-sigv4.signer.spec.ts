import { canonicalUri, parseAwsCredentials, signSigV4 } from './aws-sigv4.signer';

// Published vectors: AWS SigV4 test suite (get-vanilla, get-vanilla-query-order-key-case,
// post-vanilla) and the S3 "GET Object" example of the SigV4 documentation.
const SUITE_CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SUITE_TIME = new Date('2015-08-30T12:36:00Z');

function suiteSign(method: string, url: string) {
  return signSigV4({ method, url: new URL(url), headers: {}, body: '', region: 'us-east-1', service: 'service', credentials: SUITE_CREDENTIALS, now: SUITE_TIME });
}

describe('signSigV4', () => {
  it('matches the AWS get-vanilla vector, Authorization header included', () => {
    const result = suiteSign('GET', 'https://example.amazonaws.com/');
    expect(result.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
    expect(result.headers['x-amz-date']).toBe('20150830T123600Z');
  });

  it('sorts the query string (get-vanilla-query-order-key-case)', () => {
    expect(suiteSign('GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1').signature).toBe(
      'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    );
  });

  it('matches post-vanilla', () => {
    expect(suiteSign('POST', 'https://example.amazonaws.com/').signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('matches the S3 GET Object example, extra signed headers included', () => {
    const result = signSigV4({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      body: '',
      region: 'us-east-1',
      service: 's3',
      credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(result.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
    expect(result.canonicalRequest.split('\n').at(-2)).toBe('host;range;x-amz-content-sha256;x-amz-date');
  });

  it('signs the session token when one is given', () => {
    const result = signSigV4({
      method: 'POST',
      url: new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse'),
      headers: { 'content-type': 'application/json' },
      body: '{}',
      region: 'us-east-1',
      service: 'bedrock',
      credentials: { ...SUITE_CREDENTIALS, sessionToken: 'token-1' },
      now: SUITE_TIME,
    });
    expect(result.headers['x-amz-security-token']).toBe('token-1');
    expect(result.headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date;x-amz-security-token');
  });
});

describe('canonicalUri', () => {
  it('encodes the already-encoded path again for non-S3 services', () => {
    expect(canonicalUri('/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse', 'bedrock')).toBe(
      '/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse',
    );
  });

  it('leaves S3 paths alone and normalises dot segments elsewhere', () => {
    expect(canonicalUri('/a%3Ab', 's3')).toBe('/a%3Ab');
    expect(canonicalUri('/a/./b/../c', 'bedrock')).toBe('/a/c');
    expect(canonicalUri('/', 'bedrock')).toBe('/');
  });
});

describe('parseAwsCredentials', () => {
  it('reads key id, secret and optional session token', () => {
    expect(parseAwsCredentials('AKID:secret/with+chars')).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret/with+chars', sessionToken: undefined });
    expect(parseAwsCredentials('AKID:secret:token')).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('rejects anything else', () => {
    expect(parseAwsCredentials(undefined)).toBeUndefined();
    expect(parseAwsCredentials('just-a-key')).toBeUndefined();
    expect(parseAwsCredentials('AKID::token')).toBeUndefined();
    expect(parseAwsCredentials('a:b:c:d')).toBeUndefined();
  });
});
