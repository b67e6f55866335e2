import type { MockHttpError, WireFormat } from './mock.types';
import { anthropicError } from './wire/anthropic.format';
import { bedrockError } from './wire/bedrock.format';
import { geminiError } from './wire/gemini.format';
import { openAiError } from './wire/openai.format';

const BEDROCK_EXCEPTIONS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** An injected status answered with the body the provider uses for it. */
export function injectedError(format: WireFormat, status: number, retryAfterSeconds?: number): MockHttpError {
  const message = `Mock provider injected failure (${status})`;
  let error: MockHttpError;
  switch (format) {
    case 'anthropic':
      error = anthropicError(status, message, ANTHROPIC_TYPES[status] ?? 'api_error');
      break;
    case 'gemini':
      error = geminiError(status, message);
      break;
    case 'bedrock':
      error = bedrockError(status, BEDROCK_EXCEPTIONS[status] ?? 'InternalServerException', message);
      break;
    default:
      error = openAiError(status, message, status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error', status === 429 ? 'rate_limit_exceeded' : null);
  }
  if (retryAfterSeconds !== undefined) error.headers['retry-after'] = String(retryAfterSeconds);
  return error;
}
