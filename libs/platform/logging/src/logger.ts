import { trace } from '@opentelemetry/api';
import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino censors wherever they appear in a log object. Secrets never reach a log line:
 * credentials, model keys, raw API keys, passwords, session tokens and cookies.
 */
export const REDACTED_PATHS = [
  'password', '*.password', 'apiKey', '*.apiKey', 'api_key', '*.api_key', 'rawKey', '*.rawKey', 'raw_key', '*.raw_key',
  'secret', '*.secret', 'token', '*.token', 'sessionToken', '*.sessionToken', 'session_token', '*.session_token',
  'authorization', '*.authorization', 'cookie', '*.cookie', 'headers.authorization', 'headers.cookie', 'headers["x-api-key"]',
  'headers["api-key"]', 'headers["x-goog-api-key"]', 'req.headers.authorization', 'req.headers.cookie', 'otp', '*.otp',
  'inviteToken', '*.inviteToken', 'invite_token', '*.invite_token', 'GATEWAY_INTERNAL_TOKEN', 'GATEWAY_ENCRYPTION_KEY',
];

/** Adds the active OpenTelemetry trace id (and span id) to every line. */
function traceMixin(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export interface CreateLoggerOptions {
  service: string;
  level?: string;
  destination?: pino.DestinationStream;
}

export function createLogger({ service, level = 'info', destination }: CreateLoggerOptions): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    mixin: traceMixin,
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
