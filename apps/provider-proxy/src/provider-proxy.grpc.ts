import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import { DomainError, isDomainError } from '@gateway/errors';
import type { providerproxy } from '@gateway/proto';
import { parseCompletionInput, type CompletionInput } from './completion/completion-input.schema';
import type { CompletionOutcome, RunCompletionUseCase } from './completion/run-completion.usecase';
import type { ToolCall } from './providers';

type Handlers = Partial<ServiceHandlers<typeof providerproxy.ProviderProxyServiceService>>;

/** Thin adapter: CompletionRequest in, one use case, CompletionResponse / StreamEvents out. */
export function providerProxyHandlers(completions: Pick<RunCompletionUseCase, 'complete' | 'stream'>): Handlers {
  return {
    complete: async (req, ctx) => {
      const input = authorizedInput(req, ctx);
      try {
        return toResponse(await completions.complete(input, ctx.signal));
      } catch (error) {
        throw asCallerError(error, ctx);
      }
    },
    streamComplete: (req, ctx) => streamEvents(completions, req, ctx),
  };
}

async function* streamEvents(completions: Pick<RunCompletionUseCase, 'stream'>, req: providerproxy.CompletionRequest, ctx: CallContext): AsyncGenerator<providerproxy.StreamEvent> {
  const input = authorizedInput(req, ctx);
  try {
    for await (const event of completions.stream(input, ctx.signal)) {
      if (event.type === 'delta') yield { delta: event.content };
      else if (event.type === 'tool_call') yield { toolCall: toToolCall(event.toolCall) };
      else yield { done: toResponse(event.outcome) };
    }
  } catch (error) {
    throw asCallerError(error, ctx);
  }
}

/** An internal team's API key reaches its own project only; services may call for any. */
function authorizedInput(req: providerproxy.CompletionRequest, ctx: CallContext): CompletionInput {
  if (ctx.principal.kind === 'api_key' && ctx.principal.projectId !== req.projectId) throw new DomainError('NOT_FOUND', 'Not found');
  return parseCompletionInput(req);
}

/**
 * A caller that went away (cancel or deadline) aborted the upstream call; what it threw is an
 * AbortError nobody will read, mapped to a domain error so it is not logged as a crash.
 */
function asCallerError(error: unknown, ctx: CallContext): unknown {
  if (ctx.signal.aborted && !isDomainError(error)) return new DomainError('UNAVAILABLE', 'Call cancelled by the caller');
  return error;
}

function toToolCall(call: ToolCall): providerproxy.ToolCall {
  return { id: call.id, name: call.name, arguments: call.arguments };
}

function toResponse(outcome: CompletionOutcome): providerproxy.CompletionResponse {
  return {
    text: outcome.text,
    toolCalls: outcome.toolCalls.map(toToolCall),
    usage: { promptTokens: outcome.usage.promptTokens, completionTokens: outcome.usage.completionTokens, cachedTokens: outcome.usage.cachedTokens },
    costUsd: outcome.costUsd,
    modelUsed: outcome.modelUsed,
    finishReason: outcome.finishReason,
    attempts: outcome.attempts,
    upstreamLatencyMs: outcome.upstreamLatencyMs,
    timeToFirstTokenMs: outcome.timeToFirstTokenMs,
  };
}
