import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for header-signed requests (Bedrock runtime).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigV4Request {
  method: string;
  url: URL;
  /** Headers that will be sent and signed (names in any case). `host` is derived from the URL. */
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  now: Date;
}

export interface SigV4Result {
  /** Headers to add to the request: authorization, x-amz-date, and the session token if any. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

/** Parses a model `api_key` of the form `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`. */
export function parseAwsCredentials(apiKey: string | undefined): AwsCredentials | undefined {
  if (!apiKey) return undefined;
  const parts = apiKey.trim().split(':');
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((part) => part === '')) return undefined;
  return { accessKeyId: parts[0], secretAccessKey: parts[1], sessionToken: parts[2] };
}

export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function signSigV4(request: SigV4Request): SigV4Result {
  const timestamp = amzDate(request.now);
  const day = timestamp.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers['host'] = request.url.host;
  headers['x-amz-date'] = timestamp;
  if (request.credentials.sessionToken) headers['x-amz-security-token'] = request.credentials.sessionToken;

  const signedNames = Object.keys(headers).sort();
  const canonicalHeaders = signedNames.map((name) => `${name}:${canonicalHeaderValue(headers[name])}\n`).join('');
  const signedHeaders = signedNames.join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(request.url.pathname, request.service),
    canonicalQuery(request.url.searchParams),
    canonicalHeaders,
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');

  const scope = `${day}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', timestamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = [day, request.region, request.service, 'aws4_request'].reduce<Buffer>(
    (key, part) => hmac(key, part),
    Buffer.from(`AWS4${request.credentials.secretAccessKey}`, 'utf8'),
  );
  const signature = hmac(signingKey, stringToSign).toString('hex');

  const added: Record<string, string> = {
    authorization: `AWS4-HMAC-SHA256 Credential=${request.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    'x-amz-date': timestamp,
  };
  if (request.credentials.sessionToken) added['x-amz-security-token'] = request.credentials.sessionToken;
  return { headers: added, canonicalRequest, stringToSign, signature };
}

/**
 * Every service except S3 signs the path URI-encoded a second time: `/model/a%3Ab` is signed as
 * `/model/a%253Ab`. Getting this wrong only shows with model ids containing `:` (most Bedrock ids).
 */
export function canonicalUri(pathname: string, service: string): string {
  if (service === 's3') return pathname || '/';
  const segments: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && pathname.endsWith('/') ? '/' : '';
  return '/' + segments.map(rfc3986Encode).join('/') + trailing;
}

export function canonicalQuery(params: URLSearchParams): string {
  const pairs: Array<[string, string]> = [];
  params.forEach((value, key) => pairs.push([rfc3986Encode(key), rfc3986Encode(value)]));
  pairs.sort(([aKey, aValue], [bKey, bValue]) => (aKey < bKey ? -1 : aKey > bKey ? 1 : aValue < bValue ? -1 : aValue > bValue ? 1 : 0));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** RFC 3986 unreserved characters stay; everything else is %XX with uppercase hex. */
export function rfc3986Encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => '%' + char.charCodeAt(0).toString(16).toUpperCase());
}

function canonicalHeaderValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function hmac(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}
