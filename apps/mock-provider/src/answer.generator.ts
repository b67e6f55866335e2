import type { MockAnswer, MockConversation, MockUsage } from './mock.types';

const PREVIEW_CHARS = 40;

/**
 * Deterministic answer derived from the input, so tests can assert exact outputs:
 * - last turn is a tool result → a final text answer quoting it;
 * - tools offered and the last turn is the user's → a call to the first tool, arguments built
 *   from its JSON schema;
 * - otherwise → "Mock answer to: <first 40 chars of the last user message>".
 */
export function generateAnswer(conversation: MockConversation, idPrefix: string): MockAnswer {
  const last = conversation.turns[conversation.turns.length - 1];
  if (last?.role === 'tool') {
    return { kind: 'text', text: `Mock answer using tool results: ${last.text.slice(0, PREVIEW_CHARS)}` };
  }
  if (conversation.tools.length > 0 && last?.role === 'user') {
    const tool = conversation.tools[0];
    return { kind: 'tool_call', id: `${idPrefix}${stableHash(last.text + tool.name)}`, name: tool.name, arguments: argumentsFromSchema(tool.parameters) };
  }
  const lastUser = [...conversation.turns].reverse().find((turn) => turn.role === 'user');
  return { kind: 'text', text: `Mock answer to: ${(lastUser?.text ?? '').slice(0, PREVIEW_CHARS)}` };
}

/** Fills every declared property with a value of its type (enums take their first value). */
export function argumentsFromSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties as Record<string, unknown>)) {
    out[name] = valueFor(name, (raw ?? {}) as Record<string, unknown>);
  }
  return out;
}

function valueFor(name: string, schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer': return 1;
    case 'number': return 1.5;
    case 'boolean': return true;
    case 'array': return [valueFor(name, (schema.items ?? { type: 'string' }) as Record<string, unknown>)];
    case 'object': return argumentsFromSchema(schema);
    default: return `mock-${name}`;
  }
}

// ~4 characters per token, like English text under common tokenizers.
export function tokensFor(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(chars / 4);
}

export function usageFor(conversation: MockConversation, answer: MockAnswer, cachedTokens = 0): MockUsage {
  let promptChars = conversation.system.length;
  for (const turn of conversation.turns) promptChars += turn.text.length;
  for (const tool of conversation.tools) promptChars += tool.name.length + JSON.stringify(tool.parameters).length;
  const promptTokens = Math.max(1, tokensFor(promptChars));
  const completionChars = answer.kind === 'text' ? answer.text.length : answer.name.length + JSON.stringify(answer.arguments).length;
  return { promptTokens, completionTokens: Math.max(1, tokensFor(completionChars)), cachedTokens: Math.min(promptTokens, Math.max(0, cachedTokens)) };
}

/** Splits a text into word-sized stream deltas (spaces kept) so re-joining gives the text back. */
export function streamPieces(text: string): string[] {
  const pieces = text.match(/\S+\s*|\s+/g);
  return pieces && pieces.length > 0 ? pieces : [text];
}

/** FNV-1a: cheap, stable ids without crypto on the hot path. */
export function stableHash(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
