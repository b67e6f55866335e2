import type { IncomingHttpHeaders } from 'node:http';
import type { MockConversation, MockCredentials, WireFormat } from './mock.types';
import { MockHttpError } from './mock.types';
import { anthropicError, parseAnthropicMessages } from './wire/anthropic.format';
import { bedrockError, parseConverseRequest } from './wire/bedrock.format';
import { geminiError, parseGeminiRequest } from './wire/gemini.format';
import { openAiError, parseOpenAiChat } from './wire/openai.format';
import { parseOpenAiResponses } from './wire/openai-responses.format';
import { verifySigV4, type SignedRequestParts } from './wire/sigv4.verifier';

/** Where a request goes, from its method and raw path alone (before the body is read). */
export interface ProviderRoute {
  format: WireFormat;
  /** Model from the path (azure deployment, gemini, bedrock); openai/anthropic name it in the body. */
  pathModel?: string;
  /** Gemini and Bedrock choose streaming by path. */
  pathStream?: boolean;
  /** OpenAI's Responses API (`/v1/responses`) rather than chat completions; same auth. */
  responsesApi?: boolean;
}

const GEMINI_PATH = /^\/(?:v1beta|v1|v1alpha)\/models\/([^/]+):(generateContent|streamGenerateContent)$/;
const BEDROCK_PATH = /^\/model\/([^/]+)\/(converse|converse-stream)$/;
const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

export function matchRoute(method: string | undefined, rawPath: string): ProviderRoute | undefined {
  if (method !== 'POST') return undefined;
  if (rawPath === '/v1/chat/completions') return { format: 'openai' };
  if (rawPath === '/v1/responses') return { format: 'openai', responsesApi: true };
  if (rawPath === '/internal/v1/chat/completions') return { format: 'internal' };
  if (rawPath === '/v1/messages') return { format: 'anthropic' };
  let match = GEMINI_PATH.exec(rawPath);
  if (match) return { format: 'gemini', pathModel: safeDecode(match[1]), pathStream: match[2] === 'streamGenerateContent' };
  match = BEDROCK_PATH.exec(rawPath);
  if (match) return { format: 'bedrock', pathModel: safeDecode(match[1]), pathStream: match[2] === 'converse-stream' };
  match = AZURE_PATH.exec(rawPath);
  if (match) return { format: 'azure', pathModel: safeDecode(match[1]) };
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export const DEFAULT_BEDROCK_CREDENTIALS = { accessKeyId: 'AKIAMOCKPROVIDER0001', secretAccessKey: 'mock/secret+access+key' };

/**
 * A key is valid when it equals the configured one; with none configured any non-empty key
 * passes except those starting with "invalid", so auth failures can be provoked without setup.
 */
function keyAccepted(given: string | undefined, expected: string | undefined): boolean {
  if (given === undefined || given === '') return false;
  return expected !== undefined ? given === expected : !given.startsWith('invalid');
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const value = header(headers, 'authorization');
  return value?.startsWith('Bearer ') ? value.slice(7).trim() : undefined;
}

/** Throws the 401/403 (or 400) the real provider answers for missing or wrong credentials. */
export function authenticate(
  route: ProviderRoute,
  request: SignedRequestParts & { headers: IncomingHttpHeaders; query: Record<string, string> },
  credentials: MockCredentials,
  now: number,
): void {
  const headers = request.headers;
  switch (route.format) {
    case 'openai': {
      const key = bearer(headers);
      if (key === undefined) throw openAiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).");
      if (!keyAccepted(key, credentials.openai)) throw openAiError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      return;
    }
    case 'internal': {
      // A self-hosted server only checks keys when started with one (vLLM --api-key).
      if (credentials.internal !== undefined && bearer(headers) !== credentials.internal) throw openAiError(401, 'Unauthorized', 'invalid_request_error', 'invalid_api_key');
      return;
    }
    case 'azure': {
      if (!request.query['api-version']) throw azureError(404, 'Resource not found');
      if (!keyAccepted(header(headers, 'api-key') ?? bearer(headers), credentials.azure)) {
        throw azureError(401, 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.');
      }
      return;
    }
    case 'anthropic': {
      const key = header(headers, 'x-api-key');
      if (key === undefined) throw anthropicError(401, 'x-api-key header is required', 'authentication_error');
      if (!keyAccepted(key, credentials.anthropic)) throw anthropicError(401, 'invalid x-api-key', 'authentication_error');
      if (!header(headers, 'anthropic-version')) throw anthropicError(400, 'anthropic-version: header is required');
      return;
    }
    case 'gemini': {
      const key = header(headers, 'x-goog-api-key') ?? request.query.key;
      if (key === undefined) {
        throw geminiError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
      }
      if (!keyAccepted(key, credentials.gemini)) throw geminiError(400, 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
      return;
    }
    case 'bedrock':
      verifySigV4(request, credentials.bedrock ?? [DEFAULT_BEDROCK_CREDENTIALS], 'bedrock', now);
      return;
  }
}

/** Azure's data-plane error envelope: `{error: {code, message}}` with the status as a string. */
function azureError(status: number, message: string): MockHttpError {
  return new MockHttpError(status, { error: { code: String(status), message } });
}

export function parseConversation(route: ProviderRoute, body: unknown, headers: IncomingHttpHeaders): MockConversation {
  switch (route.format) {
    case 'openai': return route.responsesApi ? parseOpenAiResponses(body) : parseOpenAiChat(body);
    case 'internal': return parseOpenAiChat(body);
    case 'azure': return parseOpenAiChat(body, route.pathModel);
    case 'anthropic': return parseAnthropicMessages(body, header(headers, 'anthropic-beta'));
    case 'gemini': return parseGeminiRequest(body, route.pathModel ?? '', route.pathStream === true);
    case 'bedrock': return parseConverseRequest(body, route.pathModel ?? '', route.pathStream === true);
  }
}

/** The error a provider sends for a body that is not JSON at all. */
export function malformedBody(format: WireFormat): MockHttpError {
  switch (format) {
    case 'anthropic': return anthropicError(400, 'There was an error parsing the body of your request.');
    case 'gemini': return geminiError(400, 'Invalid JSON payload received.');
    case 'bedrock': return bedrockError(400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    default: return openAiError(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)");
  }
}
