import type { UpstreamHttpClient } from './wire/upstream-http.client';

/**
 * Public, transport-free contract of the provider adapters. The gRPC layer maps its messages
 * onto these types; nothing here knows about gRPC or HTTP status codes of the gateway.
 */

export type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'azure' | 'internal';

export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'internal'];

/**
 * One model of the registry, resolved and with its key decrypted. Prices are USD per 1,000 tokens.
 * Known `additionalConfig` keys: `provider_model` (upstream model name, default = identifier),
 * `region` (bedrock), `deployment` and `api_version` (azure), `cached_input_discount` (0..1),
 * `max_tokens` (default completion budget; anthropic requires one).
 */
export interface ModelTarget {
  identifier: string;
  provider: ProviderName;
  baseUrl?: string;
  apiKey?: string;
  inputCostPer1k: number;
  outputCostPer1k: number;
  additionalConfig: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage = {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Calls the assistant asked for in this turn (role `assistant`). */
  toolCalls?: ToolCall[];
  /** The call this message answers (role `tool`). */
  toolCallId?: string;
  /** Tool name of a `tool` message; looked up from the history when absent (gemini needs it). */
  name?: string;
};

export type FunctionToolDefinition = {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
};

export type McpToolDefinition = {
  type: 'mcp';
  server_label: string;
  server_url: string;
  require_approval?: unknown;
  vpc_only?: boolean;
};

export type ToolDefinition = FunctionToolDefinition | McpToolDefinition;

export interface CompletionRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxTokens?: number;
  /** Caller cancellation: aborts the in-flight attempt and skips retries and fallbacks. */
  signal?: AbortSignal;
}

export interface Usage {
  /** All prompt tokens, cached ones included. */
  promptTokens: number;
  completionTokens: number;
  /** The part of promptTokens served from the provider's prompt cache. */
  cachedTokens: number;
}

/**
 * `finishReason` is normalised to chat-completion semantics: `stop`, `tool_calls`, `length`,
 * `content_filter`. `modelUsed` is the registry identifier of the model that answered.
 */
export interface CompletionResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** USD. */
  costUsd: number;
  modelUsed: string;
  finishReason: string;
  /** Upstream HTTP attempts across the whole path, failed ones included. */
  attempts: number;
}

export type StreamEvent =
  | { type: 'delta'; content: string }
  | { type: 'tool_call'; toolCall: ToolCall }
  | { type: 'done'; usage: Usage; costUsd: number; finishReason: string; modelUsed: string; attempts: number };

export interface ProviderGateway {
  /** `path` is the primary model followed by its fallbacks, tried in order. */
  complete(path: ModelTarget[], req: CompletionRequest): Promise<CompletionResult>;
  stream(path: ModelTarget[], req: CompletionRequest): AsyncIterable<StreamEvent>;
}

export interface ProviderGatewayLogger {
  warn(obj: object, msg: string): void;
}

export interface ProviderGatewayOptions {
  /** Per attempt, ms: until the response (non-streaming) or between stream chunks. */
  timeoutMs: number;
  /** Retries per model after the first attempt. */
  maxRetries: number;
  /** First backoff delay, ms; doubles per retry, with jitter. */
  backoffBaseMs: number;
  breaker: { failureThreshold: number; openMs: number };
  /** The HTTP client of upstream calls (keep-alive, bounded connections); one per gateway by default. */
  http?: UpstreamHttpClient;
  /** When set, only these hosts (exact, or `*.suffix`) may be called. */
  allowedHosts?: string[];
  logger?: ProviderGatewayLogger;
}
