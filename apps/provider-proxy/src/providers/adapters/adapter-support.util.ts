import type {
  ChatMessage,
  CompletionRequest,
  FunctionToolDefinition,
  McpToolDefinition,
  ModelTarget,
} from '../provider.types';
import { configFailure, protocolFailure } from '../resilience/upstream-attempt.error';

export function configString(target: ModelTarget, key: string): string | undefined {
  const value = target.additionalConfig?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function configNumber(target: ModelTarget, key: string): number | undefined {
  const value = target.additionalConfig?.[key];
  const parsed = typeof value === 'string' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
}

/** The model name the provider knows; the registry identifier is only ours. */
export function upstreamModel(target: ModelTarget): string {
  return configString(target, 'provider_model') ?? target.identifier;
}

/**
 * Caches what `compute` derives from a string (a URL parsed and checked, say) for the strings a
 * process keeps seeing: registry base URLs are few and repeat on every call. Past `limit` entries
 * the cache starts over, so odd inputs cannot grow it. Throws are not cached.
 */
export function boundedMemo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      if (cache.size >= limit) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
}

/** Joins a base URL and a path without doubling or dropping the slash between them. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}

export function requireBaseUrl(value: string | undefined, fallback: string | undefined, provider: string): string {
  const base = value?.trim() || fallback;
  if (!base) throw configFailure(`${provider} model needs a base_url`);
  return base;
}

export function functionTools(req: CompletionRequest): FunctionToolDefinition[] {
  return (req.tools ?? []).filter((tool): tool is FunctionToolDefinition => tool.type === 'function');
}

export function mcpTools(req: CompletionRequest): McpToolDefinition[] {
  return (req.tools ?? []).filter((tool): tool is McpToolDefinition => tool.type === 'mcp');
}

/** An empty object schema: what providers expect for a tool that takes no arguments. */
export function parametersOf(tool: FunctionToolDefinition): Record<string, unknown> {
  return tool.function.parameters ?? { type: 'object', properties: {} };
}

/**
 * Tool arguments arrive as a JSON string from OpenAI-style providers. Invalid or non-object JSON
 * is kept under `_raw` rather than dropped, so tool-fidelity scoring can still see what the
 * model invented.
 */
export function parseToolArguments(raw: string | undefined | null): Record<string, unknown> {
  if (raw === undefined || raw === null || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: keep the raw text
  }
  return { _raw: raw };
}

export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function systemPrompt(messages: ChatMessage[]): string | undefined {
  const parts = messages.filter((m) => m.role === 'system' && m.content !== '').map((m) => m.content);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** Tool name per call id, for providers whose tool results must carry the name (gemini). */
export function toolNamesById(messages: ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
  }
  return names;
}

/**
 * Appends `blocks` to the last turn when it has the same role: providers with strict
 * alternation (anthropic, gemini, bedrock) want parallel tool results in one turn.
 */
export function pushMerged<T>(turns: Array<{ role: string; blocks: T[] }>, role: string, blocks: T[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (last && last.role === role) last.blocks.push(...blocks);
  else turns.push({ role, blocks: [...blocks] });
}

export function parseJsonEvent(data: string): Record<string, unknown> {
  try {
    return asObject(JSON.parse(data));
  } catch {
    throw protocolFailure('invalid stream event');
  }
}

export function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

export function mcpNotSupported(provider: string): string {
  return `MCP tools are not supported by provider ${provider}`;
}
