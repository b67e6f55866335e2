import { performance } from 'node:perf_hooks';
import { DomainError } from '@gateway/errors';
import type { ResolvedModel } from '../credentials/model-credentials.cache';
import type { CompletionRequest, CompletionResult, ModelTarget, ProviderGateway, ToolCall, ToolDefinition } from '../providers';
import type { CompletionInput } from './completion-input.schema';

export interface ModelResolver {
  resolve(projectId: number, identifiers: string[]): Promise<Map<string, ResolvedModel>>;
}

export interface UseCaseLogger {
  warn(obj: object, msg: string): void;
}

/** A completion with the timings the ledger records. Durations in ms. */
export interface CompletionOutcome extends CompletionResult {
  upstreamLatencyMs: number;
  timeToFirstTokenMs: number;
}

export type CompletionStreamEvent =
  | { type: 'delta'; content: string }
  | { type: 'tool_call'; toolCall: ToolCall }
  | { type: 'done'; outcome: CompletionOutcome };

/**
 * One model call for a project: resolves the model path against the registry (with decrypted
 * keys), applies the privacy rule, then lets the provider gateway call it with retries,
 * fallbacks and circuit breaking.
 *
 * Privacy rule: a request marked private-only (secure tier) or offering a `vpc_only` MCP tool may
 * only reach models with `is_public: false`. A public primary is refused; public fallbacks are
 * left out of the path. Fallbacks missing from the registry (deleted after routing) are skipped.
 */
export class RunCompletionUseCase {
  constructor(
    private readonly models: ModelResolver,
    private readonly gateway: ProviderGateway,
    private readonly logger?: UseCaseLogger,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  async complete(input: CompletionInput, signal?: AbortSignal): Promise<CompletionOutcome> {
    const path = await this.resolvePath(input);
    const started = this.clock();
    const result = await this.gateway.complete(path, toRequest(input, signal));
    const latency = round(this.clock() - started);
    // Without streaming the first token reaches the caller with the whole answer.
    return { ...result, upstreamLatencyMs: latency, timeToFirstTokenMs: latency };
  }

  async *stream(input: CompletionInput, signal?: AbortSignal): AsyncGenerator<CompletionStreamEvent> {
    const path = await this.resolvePath(input);
    const started = this.clock();
    let firstContentAt: number | undefined;
    let text = '';
    const toolCalls: ToolCall[] = [];
    for await (const event of this.gateway.stream(path, toRequest(input, signal))) {
      if (event.type === 'done') {
        const finished = this.clock();
        yield {
          type: 'done',
          outcome: {
            text,
            toolCalls,
            usage: event.usage,
            costUsd: event.costUsd,
            modelUsed: event.modelUsed,
            finishReason: event.finishReason,
            attempts: event.attempts,
            upstreamLatencyMs: round(finished - started),
            timeToFirstTokenMs: round((firstContentAt ?? finished) - started),
          },
        };
        return;
      }
      firstContentAt ??= this.clock();
      if (event.type === 'delta') text += event.content;
      else toolCalls.push(event.toolCall);
      yield event;
    }
  }

  private async resolvePath(input: CompletionInput): Promise<ModelTarget[]> {
    const [primaryId, ...fallbackIds] = input.modelPath;
    const resolved = await this.models.resolve(input.projectId, input.modelPath);
    const primary = resolved.get(primaryId);
    if (!primary) throw new DomainError('VALIDATION_FAILED', `Model not authorized or found: ${primaryId}`);
    const privateOnly = input.privateModelsOnly || hasVpcOnlyTool(input.tools);
    if (privateOnly && primary.isPublic) {
      throw new DomainError('VALIDATION_FAILED', `Model ${primaryId} is public; this request may only reach private models (is_public: false)`);
    }
    const path = [primary.target];
    for (const identifier of fallbackIds) {
      const fallback = resolved.get(identifier);
      if (!fallback) {
        this.logger?.warn({ model: identifier, projectId: input.projectId }, 'fallback model not in the registry; skipped');
      } else if (privateOnly && fallback.isPublic) {
        this.logger?.warn({ model: identifier, projectId: input.projectId }, 'public fallback skipped for a private-only request');
      } else {
        path.push(fallback.target);
      }
    }
    return path;
  }
}

function hasVpcOnlyTool(tools: ToolDefinition[]): boolean {
  return tools.some((tool) => tool.type === 'mcp' && tool.vpc_only === true);
}

function toRequest(input: CompletionInput, signal: AbortSignal | undefined): CompletionRequest {
  return { messages: input.messages, tools: input.tools.length > 0 ? input.tools : undefined, maxTokens: input.maxTokens, signal };
}

/** Microsecond precision is plenty for a latency in ms. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
