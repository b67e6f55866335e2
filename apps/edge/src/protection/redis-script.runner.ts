import { createHash } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { Redis } from 'ioredis';

/** A Lua script known by its SHA1, so the hot path sends only the hash (EVALSHA). */
export interface RedisScript {
  source: string;
  sha: string;
}

/** The two commands the runner needs; a narrow type so unit tests can stub it without a server. */
export type ScriptClient = Pick<Redis, 'evalsha' | 'eval'>;

export function defineRedisScript(source: string): RedisScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * EVALSHA, falling back to EVAL when the server does not know the script (first use, or after a
 * restart/failover flushed the script cache); EVAL also caches it for the next EVALSHA.
 * Failures to reach Redis become DomainError UNAVAILABLE, so the caller answers 503 and calls no
 * model (fail closed). A reply error that is not about availability is a bug and stays as is.
 */
export async function runRedisScript(client: ScriptClient, script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
  try {
    try {
      return await client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScriptError(error)) throw error;
      return await client.eval(script.source, keys.length, ...keys, ...args);
    }
  } catch (error) {
    throw isBugReply(error) ? error : protectionUnavailable(error);
  }
}

export function protectionUnavailable(cause: unknown): DomainError {
  return new DomainError('UNAVAILABLE', 'Service temporarily unavailable: usage limits cannot be checked.', {
    cause,
    retryAfterSeconds: 1,
  });
}

function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** Server states that pass (loading, failover, overload): availability, not a bug in our scripts. */
const TRANSIENT_REPLY_PREFIXES = ['LOADING', 'READONLY', 'MASTERDOWN', 'BUSY', 'OOM', 'CLUSTERDOWN', 'TRYAGAIN', 'NOREPLICAS'];

/** ioredis rejects with ReplyError (name 'ReplyError') when the server answered with an error. */
function isBugReply(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return false;
  return !TRANSIENT_REPLY_PREFIXES.some((prefix) => error.message.startsWith(prefix));
}
