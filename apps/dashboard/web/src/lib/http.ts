/**
 * The console's HTTP core: same-origin JSON requests (the dashboard server relays /api to the
 * edge, so the HttpOnly session cookie travels by itself) and the spec's error bodies turned
 * into one error type whose message is the API's own text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Machine-readable code of gateway protection errors (`CIRCUIT_OPEN`, `TOO_MANY_ATTEMPTS`, ...). */
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The session is missing, stale or invalid: the console goes back to the login page. */
  get isUnauthenticated(): boolean {
    return this.status === 401;
  }
}

const FALLBACK: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  422: 'Validation failed',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway: the API is unreachable',
  503: 'Service temporarily unavailable',
};

/** `{error}`, `{errors: [...]}` (both with an optional `code`), or anything else by status. */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' ? record.code : undefined;
  if (typeof record.error === 'string' && record.error) return new ApiError(status, record.error, code, body);
  if (Array.isArray(record.errors) && record.errors.length > 0) return new ApiError(status, record.errors.map(String).join('. ').replace(/\.\./g, '.'), code, body);
  return new ApiError(status, FALLBACK[status] ?? `Request failed (HTTP ${status})`, code, body);
}

export type QueryValue = string | number | boolean | undefined | null;

/** `?a=1&b=x` from the defined values, in the order given; empty when none. */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

export class HttpClient {
  private readonly listeners = new Set<(error: ApiError) => void>();

  constructor(private readonly fetchImpl: Fetch = (input, init) => fetch(input, init)) {}

  /** Called on every 401 (the session ended): the console returns to the login page. */
  onUnauthenticated(listener: (error: ApiError) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(path + buildQuery(options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new ApiError(0, 'Network error: the dashboard server cannot be reached');
    }
    const text = await response.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    if (!response.ok) {
      const error = errorFromResponse(response.status, body);
      // A failed login is a 401 too, but there is no session to lose.
      if (error.isUnauthenticated && path !== '/api/v1/session') for (const listener of this.listeners) listener(error);
      throw error;
    }
    return body as T;
  }
}
