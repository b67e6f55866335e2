/** The wire formats the mock speaks; `internal` is OpenAI-compatible without required auth. */
export type WireFormat = 'openai' | 'internal' | 'azure' | 'anthropic' | 'gemini' | 'bedrock';

/**
 * Failure injected into a response:
 * - an HTTP status (429, 500, 503, 401, ...) answered with the provider's error body;
 * - `timeout`: the request is held and never answered;
 * - `reset`: the connection is destroyed before any response;
 * - `broken-stream`: the response starts, delivers its first content, then the connection dies;
 * - `broken-stream-early`: the response starts but dies before any content;
 * - `stalled-stream`: the response delivers its first content, then goes silent (connection open).
 */
export type FailureMode = number | 'timeout' | 'reset' | 'broken-stream' | 'broken-stream-early' | 'stalled-stream';

/** A rule applied to matching requests. All matching rules apply; earlier ones win per field. */
export interface MockBehavior {
  /** Upstream model name (azure: deployment; bedrock: model id). Omit to match every model. */
  model?: string;
  format?: WireFormat;
  /** Number of matching requests the rule applies to before it expires; omit for no limit. */
  times?: number;
  fail?: FailureMode;
  /** Sent with injected 429/503 failures. */
  retryAfterSeconds?: number;
  /** Delay before answering, ms. */
  latencyMs?: number;
  /** Prompt tokens reported as served from the prompt cache (capped at the prompt size). */
  cachedTokens?: number;
  /** Answer without usage, as some compatible servers do. */
  omitUsage?: boolean;
}

export interface MockUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

export interface RecordedRequest {
  id: number;
  /** Epoch ms. */
  receivedAt: number;
  method: string;
  path: string;
  query: Record<string, string>;
  format: WireFormat;
  model: string;
  stream: boolean;
  /** As received (lowercase names); credentials included, the mock only ever sees test keys. */
  headers: Record<string, string>;
  body: unknown;
  status: number;
  /** Usage the mock reported, when it answered successfully. */
  usage?: MockUsage;
  /** The client closed the connection before the answer was complete (a cancelled call). */
  abortedByClient?: boolean;
}

export interface MockCredentials {
  openai?: string;
  azure?: string;
  anthropic?: string;
  gemini?: string;
  /** When set, internal requests must carry it as a Bearer token (vLLM --api-key). */
  internal?: string;
  bedrock?: Array<{ accessKeyId: string; secretAccessKey: string }>;
}

/** One turn of a conversation, whatever wire format it arrived in. */
export interface MockTurn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
}

export interface MockTool {
  name: string;
  parameters: Record<string, unknown>;
}

export interface MockConversation {
  model: string;
  stream: boolean;
  system: string;
  turns: MockTurn[];
  tools: MockTool[];
  /** Anthropic MCP connector servers (name), answered with a simulated server-side tool use. */
  mcpServers: string[];
  /** OpenAI streams carry usage only when asked (stream_options.include_usage). */
  includeStreamUsage: boolean;
}

export type MockAnswer =
  | { kind: 'text'; text: string }
  | { kind: 'tool_call'; id: string; name: string; arguments: Record<string, unknown> };

/** A complete rendered stream: frames written in order; `firstContent` indexes the first delta. */
export interface RenderedStream {
  contentType: string;
  frames: Array<string | Buffer>;
  firstContent: number;
}

export interface RenderedJson {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A request the mock refuses the way the real provider would. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`mock provider answered ${status}`);
  }
}
