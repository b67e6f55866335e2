import type { CompletionRequest, ModelTarget, ToolCall, Usage } from '../provider.types';

/** One HTTP call to a provider, fully built (URL, auth, body) but not sent. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ParsedCompletion {
  text: string;
  toolCalls: ToolCall[];
  /** Absent when the provider sent none; the gateway then estimates and warns. */
  usage?: Usage;
  finishReason: string;
}

/**
 * What an adapter's stream parser yields. `end` is only yielded once the provider's terminal
 * marker was seen: a body that ends without it is a broken stream.
 */
export type AdapterStreamEvent =
  | { type: 'delta'; content: string }
  | { type: 'tool_call'; toolCall: ToolCall }
  | { type: 'end'; usage?: Usage; finishReason: string };

export interface BuildOptions {
  stream: boolean;
  /** Injected so SigV4 signatures are reproducible in tests. */
  now: Date;
}

export interface ProviderAdapter {
  /**
   * Returns why this provider cannot serve the request (e.g. an MCP tool it cannot pass on),
   * or undefined when it can. The message names the provider and is shown to callers.
   */
  unsupportedReason(target: ModelTarget, req: CompletionRequest): string | undefined;
  /** Throws UpstreamAttemptError('config') when the target is not callable as configured. */
  buildRequest(target: ModelTarget, req: CompletionRequest, options: BuildOptions): UpstreamRequest;
  parseCompletion(body: unknown): ParsedCompletion;
  parseStream(chunks: AsyncIterable<Uint8Array>): AsyncIterable<AdapterStreamEvent>;
}
