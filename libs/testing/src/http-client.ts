/** A tiny HTTP helper for tests: JSON in/out, a cookie jar, the status kept. */
export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestHttpClient {
  private cookie = '';

  constructor(private readonly baseUrl: string, private readonly defaults: Record<string, string> = {}) {}

  withBearer(token: string): TestHttpClient {
    return new TestHttpClient(this.baseUrl, { ...this.defaults, authorization: `Bearer ${token}` });
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...this.defaults, ...(this.cookie ? { cookie: this.cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body);
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body);
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
