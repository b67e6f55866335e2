import { errorFromResponse, NetworkError, type ErrorBody, type GatewayError } from '../errors';
import { backoffDelayMs, isRetryableStatus, type RetryOptions } from './retry.policy';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
export type QueryValue = string | number | boolean | undefined | null;

export interface TransportOptions {
  baseUrl: string;
  /** Headers sent on every request (credential, SDK mode). */
  headers: () => Record<string, string>;
  retry: RetryOptions;
  /** Per-attempt time limit until the response headers arrive (ms). */
  timeoutMs: number;
  fetch?: FetchLike;
  sleep?: Sleep;
  /** Sees every response (the dashboard client keeps its session cookie with it). */
  onResponse?: (response: Response) => void;
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface JsonResponse<T> {
  status: number;
  body: T;
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

async function readErrorBody(response: Response): Promise<ErrorBody | undefined> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as ErrorBody) : { error: text };
  } catch {
    return { error: text.slice(0, 500) };
  }
}

/**
 * fetch with the gateway's conventions: base address, headers, a time limit per attempt, the
 * retry policy (HTTP 500 only) and one error mapping. `open` hands back the raw response (for
 * streams); `json` reads a JSON answer.
 */
export class HttpTransport {
  private readonly fetchImpl: FetchLike;
  private readonly sleep: Sleep;

  constructor(readonly options: TransportOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? abortableSleep;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A successful (2xx) response; error answers are thrown as mapped errors after the retry policy. */
  async open(method: string, path: string, request: RequestOptions = {}): Promise<Response> {
    const context = { method, path };
    const url = buildUrl(this.options.baseUrl, path, request.query);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(request.headers ?? {}) };
    for (let attempt = 0; ; attempt++) {
      const response = await this.attempt(url, { method, headers, body }, request.signal, context);
      this.options.onResponse?.(response);
      if (response.ok) return response;
      const errorBody = await readErrorBody(response);
      if (isRetryableStatus(response.status) && attempt < this.options.retry.retries) {
        await this.sleep(backoffDelayMs(attempt, this.options.retry), request.signal);
        continue;
      }
      throw errorFromResponse(response.status, errorBody, context);
    }
  }

  async json<T>(method: string, path: string, request: RequestOptions = {}): Promise<JsonResponse<T>> {
    const response = await this.open(method, path, request);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  private async attempt(url: string, init: RequestInit, signal: AbortSignal | undefined, context: { method: string; path: string }): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no response within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.fetchImpl(url, { ...init, signal: controller.signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw networkError(error, context);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function networkError(error: unknown, context: { method: string; path: string }): GatewayError {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return new NetworkError(`Gateway unreachable (${context.method} ${context.path}): ${detail}`, { context, cause: error });
}
