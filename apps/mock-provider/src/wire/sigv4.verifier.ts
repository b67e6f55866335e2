import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MockHttpError } from '../mock.types';

/**
 * Server-side SigV4 check, written independently of the gateway's signer (own encoder, own
 * canonicalisation from the raw request line) so a wrong canonical request on either side shows
 * up as a 403, as it would against AWS.
 */
export interface SignedRequestParts {
  method: string;
  /** Path as it appeared on the request line, percent-encoding intact. */
  rawPath: string;
  rawQuery: string;
  /** Lowercase header names, as node delivers them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface AwsKeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignatureInput {
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  signedHeaders: string[];
  payloadSha256: string;
  secretAccessKey: string;
  amzDate: string;
  region: string;
  service: string;
}

// AWS rejects signatures older or newer than this.
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

function awsError(type: string, message: string): MockHttpError {
  return new MockHttpError(403, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` });
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Byte-wise RFC 3986 encoding with uppercase hex, as SigV4 requires. */
export function awsUriEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(char) ? char : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Non-S3 services sign each segment of the already-encoded path encoded once more. */
function canonicalPath(rawPath: string): string {
  const segments = rawPath.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return '/';
  return '/' + segments.map(awsUriEncode).join('/') + (rawPath.endsWith('/') ? '/' : '');
}

function canonicalQueryString(rawQuery: string): string {
  if (rawQuery === '') return '';
  const pairs = rawQuery.split('&').filter((pair) => pair !== '').map((pair) => {
    const eq = pair.indexOf('=');
    const key = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    const value = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    return [awsUriEncode(key), awsUriEncode(value)];
  });
  // By name, then by value: sorting the joined "k=v" strings would misplace "a-b" before "a".
  pairs.sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) : x[0] < y[0] ? -1 : 1));
  return pairs.map(([key, value]) => key + '=' + value).join('&');
}

function headerValue(value: string | string[] | undefined): string {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/ +/g, ' ');
}

export function computeSignature(input: SignatureInput): { canonicalRequest: string; signature: string } {
  const canonicalRequest =
    input.method + '\n' +
    canonicalPath(input.rawPath) + '\n' +
    canonicalQueryString(input.rawQuery) + '\n' +
    input.signedHeaders.map((name) => name + ':' + headerValue(input.headers[name]) + '\n').join('') + '\n' +
    input.signedHeaders.join(';') + '\n' +
    input.payloadSha256;
  const day = input.amzDate.slice(0, 8);
  const scope = [day, input.region, input.service, 'aws4_request'].join('/');
  const stringToSign = 'AWS4-HMAC-SHA256\n' + input.amzDate + '\n' + scope + '\n' + createHash('sha256').update(canonicalRequest).digest('hex');
  let key: Buffer = createHmac('sha256', 'AWS4' + input.secretAccessKey).update(day).digest();
  key = createHmac('sha256', key).update(input.region).digest();
  key = createHmac('sha256', key).update(input.service).digest();
  key = createHmac('sha256', key).update('aws4_request').digest();
  return { canonicalRequest, signature: createHmac('sha256', key).update(stringToSign).digest('hex') };
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** Throws the 403 AWS would send; returns the region of the credential scope on success. */
export function verifySigV4(request: SignedRequestParts, keys: AwsKeyPair[], expectedService: string, now: number = Date.now()): { region: string } {
  const authorization = headerValue(request.headers['authorization']);
  if (authorization === '') throw awsError('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = AUTHORIZATION.exec(authorization);
  if (!match) throw awsError('IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.`);
  const [, accessKeyId, day, region, service, signedList, signature] = match;
  const key = keys.find((candidate) => candidate.accessKeyId === accessKeyId);
  if (!key) throw awsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
  if (service !== expectedService) throw awsError('InvalidSignatureException', `Credential should be scoped to correct service: '${expectedService}'.`);

  const amzDate = headerValue(request.headers['x-amz-date']);
  const signedHeaders = signedList.split(';');
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) {
    throw awsError('IncompleteSignatureException', 'Signed headers must include host and x-amz-date.');
  }
  if (amzDate.slice(0, 8) !== day) throw awsError('InvalidSignatureException', 'Credential date does not match x-amz-date.');
  const signedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (Math.abs(now - signedAt) > MAX_CLOCK_SKEW_MS) throw awsError('InvalidSignatureException', 'Signature expired: the request time is too far from the server time.');
  if (request.headers['x-amz-security-token'] !== undefined && !signedHeaders.includes('x-amz-security-token')) {
    throw awsError('InvalidSignatureException', 'The security token must be signed.');
  }

  const { signature: expected } = computeSignature({
    method: request.method,
    rawPath: request.rawPath,
    rawQuery: request.rawQuery,
    headers: request.headers,
    signedHeaders,
    payloadSha256: createHash('sha256').update(request.body).digest('hex'),
    secretAccessKey: key.secretAccessKey,
    amzDate,
    region,
    service,
  });
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    throw awsError(
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  }
  return { region };
}
