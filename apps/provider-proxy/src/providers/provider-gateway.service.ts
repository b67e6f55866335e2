import { DomainError } from '@gateway/errors';
import { createAdapterRegistry } from './adapters/adapter.registry';
import { boundedMemo, configString, upstreamModel } from './adapters/adapter-support.util';
import type { AdapterStreamEvent, ParsedCompletion, ProviderAdapter } from './adapters/provider-adapter.types';
import type {
  CompletionRequest,
  CompletionResult,
  ModelTarget,
  ProviderGateway,
  ProviderGatewayOptions,
  StreamEvent,
  ToolCall,
  Usage,
} from './provider.types';
import { AttemptTimer } from './resilience/attempt.timer';
import { parseRetryAfter, retryDelayMs, sleep } from './resilience/backoff.policy';
import { CircuitBreaker, CircuitBreakerRegistry } from './resilience/circuit-breaker.policy';
import { createOutboundGuard } from './resilience/outbound-url.guard';
import { configFailure, httpFailure, protocolFailure, UpstreamAttemptError } from './resilience/upstream-attempt.error';
import { costUsd, estimateUsage } from './usage/cost.calculator';
import { createUpstreamHttpClient, type UpstreamResponse } from './wire/upstream-http.client';

interface PlannedModel {
  target: ModelTarget;
  adapter: ProviderAdapter;
  breaker: CircuitBreaker;
}

interface OpenedStream {
  first: AdapterStreamEvent;
  iterator: AsyncIterator<AdapterStreamEvent>;
  timer: AttemptTimer;
}

/**
 * Calls a model path (primary, then fallbacks) with per-attempt timeouts, retries with backoff
 * on transient failures, and a circuit breaker per endpoint. Errors reaching callers name models
 * and statuses only: upstream bodies, URLs and keys never leave this module.
 */
export function createProviderGateway(options: ProviderGatewayOptions): ProviderGateway {
  const http = options.http ?? createUpstreamHttpClient();
  const breakers = new CircuitBreakerRegistry(options.breaker);
  const guard = createOutboundGuard(options.allowedHosts);
  const adapterFor = createAdapterRegistry();
  const logger = options.logger;
  // Upstream URLs repeat call after call: each is parsed and checked once.
  const destinationOf = boundedMemo(1024, (url) => {
    const parsed = new URL(url);
    return { url: parsed, check: guard(parsed) };
  });

  function plan(path: ModelTarget[], req: CompletionRequest): PlannedModel[] {
    if (path.length === 0) throw new DomainError('VALIDATION_FAILED', 'No model to call');
    const planned: PlannedModel[] = [];
    path.forEach((target, index) => {
      const adapter = adapterFor(target.provider, req);
      const reason = adapter ? adapter.unsupportedReason(target, req) : `Provider ${String(target.provider)} is not supported`;
      if (adapter && reason === undefined) {
        planned.push({ target, adapter, breaker: breakers.for(endpointKeyOf(target)) });
        return;
      }
      // The primary decides what the request may contain; a fallback that cannot serve it is
      // skipped rather than failing a request its primary accepts.
      if (index === 0) throw new DomainError('VALIDATION_FAILED', reason!);
      logger?.warn({ model: target.identifier, provider: target.provider, reason }, 'fallback model skipped');
    });
    return planned;
  }

  /** Builds, guards and sends one request; resolves with a 2xx response. */
  async function send(model: PlannedModel, req: CompletionRequest, stream: boolean): Promise<{ response: UpstreamResponse; timer: AttemptTimer }> {
    let upstream;
    let destination;
    try {
      upstream = model.adapter.buildRequest(model.target, req, { stream, now: new Date() });
      destination = destinationOf(upstream.url);
    } catch (error) {
      throw error instanceof UpstreamAttemptError ? error : configFailure('invalid base_url or model configuration');
    }
    const { url, check } = destination;
    if (!check.allowed) throw new UpstreamAttemptError('blocked', `destination refused (${check.reason})`, { retryable: false });

    let call;
    try {
      call = http.post(url, upstream.headers, upstream.body);
    } catch {
      // Headers node:http refuses to send (a key with a line break): nothing left this process.
      throw configFailure('invalid header value in the model configuration');
    }
    const timer = new AttemptTimer(options.timeoutMs, req.signal);
    timer.attach(call.abort);
    try {
      const response = await call.response;
      if (response.status < 200 || response.status >= 300) {
        const retryAfter = parseRetryAfter((name) => response.header(name));
        // The body is dropped unread: it may echo the request or a key fragment.
        response.discard();
        throw httpFailure(response.status, retryAfter);
      }
      return { response, timer };
    } catch (error) {
      timer.clear();
      throw classify(error, timer);
    }
  }

  async function completeOnce(model: PlannedModel, req: CompletionRequest): Promise<ParsedCompletion> {
    const { response, timer } = await send(model, req, false);
    try {
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw protocolFailure('invalid JSON response');
      }
      return model.adapter.parseCompletion(body);
    } catch (error) {
      throw classify(error, timer);
    } finally {
      timer.clear();
    }
  }

  /** Opens a stream and reads up to its first event: the point after which nothing is retried. */
  async function openStream(model: PlannedModel, req: CompletionRequest): Promise<OpenedStream> {
    const { response, timer } = await send(model, req, true);
    const iterator = model.adapter.parseStream(touchingChunks(response.chunks(), timer))[Symbol.asyncIterator]();
    try {
      timer.touch();
      const first = await iterator.next();
      if (first.done) throw protocolFailure('stream ended before any content');
      return { first: first.value, iterator, timer };
    } catch (error) {
      timer.abort();
      throw classify(error, timer);
    }
  }

  async function tryPath<T>(planned: PlannedModel[], req: CompletionRequest, attempt: (model: PlannedModel) => Promise<T>) {
    let attempts = 0;
    let everyCircuitOpen = true;
    const failures: string[] = [];
    for (const model of planned) {
      let last: UpstreamAttemptError | undefined;
      let tries = 0;
      for (let retry = 0; retry <= options.maxRetries; retry++) {
        if (retry > 0) {
          const delay = retryDelayMs(retry, options.backoffBaseMs, last?.retryAfterMs);
          if (delay === undefined) break;
          await sleep(delay, req.signal);
        }
        if (!model.breaker.tryAcquire()) break;
        attempts += 1;
        tries += 1;
        try {
          const value = await attempt(model);
          model.breaker.recordSuccess();
          return { value, model, attempts };
        } catch (error) {
          if (req.signal?.aborted) {
            model.breaker.release();
            throw req.signal.reason;
          }
          const failure = error instanceof UpstreamAttemptError ? error : classify(error);
          // Nothing was sent for a misconfigured or refused destination.
          if (failure.kind === 'config' || failure.kind === 'blocked') attempts -= 1;
          recordOutcome(model.breaker, failure);
          logger?.warn(
            { model: model.target.identifier, provider: model.target.provider, attempt: tries, status: failure.status, failure: failure.message },
            'provider attempt failed',
          );
          last = failure;
          if (!failure.retryable) break;
        }
      }
      failures.push(`${model.target.identifier} (${describeFailure(last, tries)})`);
      if (last) everyCircuitOpen = false;
    }
    // Nothing was sent: tell the caller when the first circuit lets a probe through again.
    const retryAfterMs = everyCircuitOpen ? Math.min(...planned.map((model) => model.breaker.retryInMs())) : undefined;
    throw new DomainError('UPSTREAM_FAILED', `All models failed: ${failures.join('; ')}`, {
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000)),
    });
  }

  function usageOrEstimate(model: PlannedModel, req: CompletionRequest, usage: Usage | undefined, text: string, toolCalls: ToolCall[]): Usage {
    if (usage) return usage;
    logger?.warn({ model: model.target.identifier, provider: model.target.provider }, 'provider sent no usage; cost estimated from characters');
    return estimateUsage(req.messages, text, toolCalls);
  }

  async function complete(path: ModelTarget[], req: CompletionRequest): Promise<CompletionResult> {
    const planned = plan(path, req);
    const { value, model, attempts } = await tryPath(planned, req, (candidate) => completeOnce(candidate, req));
    const usage = usageOrEstimate(model, req, value.usage, value.text, value.toolCalls);
    return {
      text: value.text,
      toolCalls: value.toolCalls,
      usage,
      costUsd: costUsd(usage, model.target),
      modelUsed: model.target.identifier,
      finishReason: value.finishReason,
      attempts,
    };
  }

  async function* stream(path: ModelTarget[], req: CompletionRequest): AsyncGenerator<StreamEvent> {
    const planned = plan(path, req);
    const { value, model, attempts } = await tryPath(planned, req, (candidate) => openStream(candidate, req));
    const { iterator, timer } = value;
    let event: AdapterStreamEvent = value.first;
    let text = '';
    const toolCalls: ToolCall[] = [];
    try {
      for (;;) {
        if (event.type === 'delta' || event.type === 'tool_call') {
          if (event.type === 'delta') text += event.content;
          else toolCalls.push(event.toolCall);
          // The idle clock measures the provider, not a slow consumer of this generator.
          timer.suspend();
          yield event;
          timer.resume();
        } else {
          const usage = usageOrEstimate(model, req, event.usage, text, toolCalls);
          yield { type: 'done', usage, costUsd: costUsd(usage, model.target), finishReason: event.finishReason, modelUsed: model.target.identifier, attempts };
          return;
        }
        let next: IteratorResult<AdapterStreamEvent>;
        try {
          next = await iterator.next();
          if (next.done) throw protocolFailure('stream ended before completion');
        } catch (error) {
          if (req.signal?.aborted) throw req.signal.reason;
          const failure = classify(error, timer);
          recordOutcome(model.breaker, failure);
          logger?.warn({ model: model.target.identifier, provider: model.target.provider, failure: failure.message }, 'provider stream interrupted');
          // Content already reached the caller: switching models now would splice two answers.
          throw new DomainError('UPSTREAM_FAILED', `Stream from ${model.target.identifier} interrupted (${failure.message})`);
        }
        event = next.value;
      }
    } finally {
      timer.abort();
      void iterator.return?.().catch(() => undefined);
    }
  }

  return { complete, stream };
}

/** A breaker counts outages only: a 400 or 401 proves the endpoint is up. */
function recordOutcome(breaker: CircuitBreaker, failure: UpstreamAttemptError): void {
  if (failure.kind === 'config' || failure.kind === 'blocked') breaker.release();
  else if (failure.countsAsOutage) breaker.recordFailure();
  else breaker.recordSuccess();
}

function describeFailure(failure: UpstreamAttemptError | undefined, tries: number): string {
  if (!failure) return 'circuit open';
  return tries > 1 ? `${failure.message}, ${tries} attempts` : failure.message;
}

/** Health is tracked per upstream endpoint and model, not per registry entry. */
function endpointKey(target: ModelTarget): string {
  return [target.provider, target.baseUrl ?? '', upstreamModel(target), configString(target, 'deployment') ?? '', configString(target, 'region') ?? ''].join('|');
}

/** Targets are cached resolved registry entries, the same object call after call. */
const endpointKeys = new WeakMap<ModelTarget, string>();
function endpointKeyOf(target: ModelTarget): string {
  let key = endpointKeys.get(target);
  if (key === undefined) {
    key = endpointKey(target);
    endpointKeys.set(target, key);
  }
  return key;
}

/**
 * Maps whatever an attempt threw to a safe UpstreamAttemptError. Messages are built from error
 * codes only: node:http and adapter messages can contain hosts and URLs.
 */
function classify(error: unknown, timer?: AttemptTimer): UpstreamAttemptError {
  if (timer?.timedOut) return new UpstreamAttemptError('timeout', 'timeout', { retryable: true });
  if (error instanceof UpstreamAttemptError) return error;
  const code = networkErrorCode(error);
  if (code !== undefined) return new UpstreamAttemptError('network', `connection error (${code})`, { retryable: true });
  return new UpstreamAttemptError('protocol', 'unreadable response', { retryable: false });
}

/**
 * The code of a transport failure: system errors (ECONNREFUSED, ECONNRESET, ENOTFOUND), TLS
 * (DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID), HTTP parsing (HPE_*) and stream
 * errors all carry one; adapter and parsing errors do not. Duck-typed on purpose: core errors
 * come from another realm wherever code runs in a vm context (jest's sandbox).
 */
function networkErrorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

async function* touchingChunks(body: AsyncIterable<Uint8Array>, timer: AttemptTimer): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    timer.touch();
    yield chunk;
  }
}
