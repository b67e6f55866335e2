import { FallbackProviderError, type GatewayError } from '../errors';
import { buildUrl, type FetchLike } from '../http/http.transport';

/**
 * Fail-open target: any OpenAI-compatible chat-completions endpoint, called directly when the
 * gateway is unreachable or answers 5xx. Such calls are unaudited: no safety check, no routing,
 * no cost recording, no spend cap.
 */
export interface FallbackProviderOptions {
  /** e.g. `https://api.openai.com/v1` (the path `/chat/completions` is appended). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Extra headers for the provider (e.g. an organization header). */
  headers?: Record<string, string>;
  /** Time limit of one provider call until its headers arrive (ms). Default 60 000. */
  timeoutMs?: number;
}

export class FallbackProvider {
  private readonly fetchImpl: FetchLike;

  constructor(
    private readonly options: FallbackProviderOptions,
    fetchImpl?: FetchLike,
  ) {
    if (!options.baseUrl || !options.apiKey || !options.model) throw new TypeError('failOpen.provider needs baseUrl, apiKey and model');
    this.fetchImpl = fetchImpl ?? ((input, init) => fetch(input, init));
  }

  get model(): string {
    return this.options.model;
  }

  private async call(input: string, stream: boolean, gatewayError: GatewayError, signal?: AbortSignal): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('fallback provider timed out')), this.options.timeoutMs ?? 60_000);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let response: Response;
    try {
      response = await this.fetchImpl(buildUrl(this.options.baseUrl, '/chat/completions'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}`, ...(this.options.headers ?? {}) },
        body: JSON.stringify({ model: this.options.model, messages: [{ role: 'user', content: input }], ...(stream ? { stream: true } : {}) }),
        signal: controller.signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new FallbackProviderError(`Gateway unavailable and the fallback provider is unreachable: ${(error as Error)?.message ?? String(error)}`, gatewayError, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (!response.ok) {
      // Provider error bodies can echo request details; only the status is reported.
      await response.body?.cancel().catch(() => undefined);
      throw new FallbackProviderError(`Gateway unavailable and the fallback provider answered HTTP ${response.status}`, gatewayError, { status: response.status });
    }
    return response;
  }

  async complete(input: string, gatewayError: GatewayError, signal?: AbortSignal): Promise<{ output: string; model: string }> {
    const response = await this.call(input, false, gatewayError, signal);
    const body = (await response.json().catch(() => undefined)) as { model?: string; choices?: Array<{ message?: { content?: string | null } }> } | undefined;
    const output = body?.choices?.[0]?.message?.content;
    if (typeof output !== 'string') throw new FallbackProviderError('Gateway unavailable and the fallback provider answered without text content', gatewayError, { status: response.status });
    return { output, model: this.options.model };
  }

  /** The provider's own SSE stream (the same chat.completion.chunk format the gateway streams). */
  stream(input: string, gatewayError: GatewayError, signal?: AbortSignal): Promise<Response> {
    return this.call(input, true, gatewayError, signal);
  }
}
