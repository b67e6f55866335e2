import { randomUUID } from 'node:crypto';
import type { ChatMessage, CompletionRequest, ModelTarget, ToolCall, Usage } from '../provider.types';
import { configFailure, protocolFailure, UpstreamAttemptError } from '../resilience/upstream-attempt.error';
import { parseSse } from '../wire/sse.parser';
import {
  asObject,
  configString,
  functionTools,
  joinUrl,
  mcpNotSupported,
  mcpTools,
  parametersOf,
  parseJsonEvent,
  pushMerged,
  requireBaseUrl,
  systemPrompt,
  toCount,
  toolNamesById,
  upstreamModel,
} from './adapter-support.util';
import type { AdapterStreamEvent, ParsedCompletion, ProviderAdapter } from './provider-adapter.types';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_API_VERSION = 'v1beta';

/**
 * Gemini API: generateContent / streamGenerateContent?alt=sse, key in `x-goog-api-key` (never in
 * the query string, where it would end up in access logs), `systemInstruction`, function calls
 * as `functionCall` parts of a `model` turn and results as `functionResponse` parts.
 *
 * MCP: refused. The Gemini REST API has no remote-MCP tool; MCP support lives in Google's SDKs,
 * which run the MCP client on the caller's side.
 */
export function createGeminiAdapter(): ProviderAdapter {
  return {
    unsupportedReason(_target: ModelTarget, req: CompletionRequest) {
      return mcpTools(req).length > 0 ? mcpNotSupported('gemini') : undefined;
    },
    buildRequest(target, req, { stream }) {
      if (!target.apiKey) throw configFailure('gemini model has no api_key');
      const base = requireBaseUrl(target.baseUrl, DEFAULT_BASE_URL, 'gemini');
      const model = upstreamModel(target).replace(/^models\//, '');
      const version = configString(target, 'api_version') ?? DEFAULT_API_VERSION;
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      const body: Record<string, unknown> = { contents: toGeminiContents(req.messages) };
      const system = systemPrompt(req.messages);
      if (system !== undefined) body.systemInstruction = { parts: [{ text: system }] };
      const tools = functionTools(req);
      if (tools.length > 0) {
        body.tools = [
          {
            functionDeclarations: tools.map((tool) => ({
              name: tool.function.name,
              ...(tool.function.description ? { description: tool.function.description } : {}),
              parameters: toGeminiSchema(parametersOf(tool)),
            })),
          },
        ];
      }
      if (req.maxTokens !== undefined) body.generationConfig = { maxOutputTokens: req.maxTokens };
      return {
        url: joinUrl(base, `${version}/models/${encodeURIComponent(model)}:${method}`),
        headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', 'x-goog-api-key': target.apiKey },
        body: JSON.stringify(body),
      };
    },
    parseCompletion: parseGeminiCompletion,
    parseStream: parseGeminiStream,
  };
}

type GeminiPart = Record<string, unknown>;

export function toGeminiContents(messages: ChatMessage[]): Array<{ role: string; parts: GeminiPart[] }> {
  const names = toolNamesById(messages);
  const turns: Array<{ role: string; blocks: GeminiPart[] }> = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      const name = message.name ?? names.get(message.toolCallId ?? '') ?? '';
      pushMerged(turns, 'user', [{ functionResponse: { name, response: toolResponse(message.content) } }]);
      continue;
    }
    const parts: GeminiPart[] = message.content !== '' ? [{ text: message.content }] : [];
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments ?? {} } });
    }
    pushMerged(turns, message.role === 'assistant' ? 'model' : 'user', parts);
  }
  return turns.map((turn) => ({ role: turn.role, parts: turn.blocks }));
}

/** functionResponse.response must be an object: JSON objects pass through, anything else is wrapped. */
function toolResponse(content: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(content);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON: wrap the text
  }
  return { content };
}

// The OpenAPI-subset Schema fields Gemini accepts; unknown ones (additionalProperties, $schema)
// make the whole request fail with 400.
const SCHEMA_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

export function toGeminiSchema(schema: unknown): Record<string, unknown> {
  const source = asObject(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'const') out.enum = [value];
    else if (!SCHEMA_KEYS.has(key)) continue;
    else if (key === 'type' && Array.isArray(value)) {
      // JSON Schema ["string", "null"] is Gemini's {type: "string", nullable: true}.
      const types = value.filter((t) => t !== 'null');
      if (types.length > 0) out.type = types[0];
      if (types.length !== value.length) out.nullable = true;
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(asObject(value)).map(([name, sub]) => [name, toGeminiSchema(sub)]));
    } else if (key === 'items') out.items = toGeminiSchema(value);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.map(toGeminiSchema);
    else out[key] = value;
  }
  return out;
}

function normaliseGeminiFinish(reason: unknown, hasToolCalls: boolean): string {
  if (hasToolCalls) return 'tool_calls';
  switch (reason) {
    case undefined:
    case 'STOP':
    case 'FINISH_REASON_UNSPECIFIED': return 'stop';
    case 'MAX_TOKENS': return 'length';
    case 'MALFORMED_FUNCTION_CALL':
    case 'OTHER': return 'stop';
    default: return 'content_filter'; // SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, ...
  }
}

/** Thinking tokens are billed as output, so they count as completion tokens. */
export function geminiUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  return {
    promptTokens: toCount(usage.promptTokenCount),
    completionTokens: toCount(usage.candidatesTokenCount) + toCount(usage.thoughtsTokenCount),
    cachedTokens: toCount(usage.cachedContentTokenCount),
  };
}

/** Gemini may omit call ids; callers need one to send results back, so one is minted. */
function toToolCall(part: Record<string, unknown>): ToolCall {
  const call = asObject(part.functionCall);
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  return { id, name: String(call.name ?? ''), arguments: asObject(call.args) };
}

interface CandidateContent {
  text: string;
  toolCalls: ToolCall[];
  finishReason: unknown;
}

function readCandidate(root: Record<string, unknown>): CandidateContent {
  const candidate = asObject(Array.isArray(root.candidates) ? root.candidates[0] : undefined);
  const parts = Array.isArray(asObject(candidate.content).parts) ? (asObject(candidate.content).parts as unknown[]) : [];
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of parts) {
    const part = asObject(raw);
    if (part.thought === true) continue;
    if (typeof part.text === 'string') text += part.text;
    if (part.functionCall !== undefined) toolCalls.push(toToolCall(part));
  }
  return { text, toolCalls, finishReason: candidate.finishReason };
}

function errorOf(root: Record<string, unknown>): UpstreamAttemptError | undefined {
  if (root.error === undefined) return undefined;
  const code = Number(asObject(root.error).code);
  const status = Number.isFinite(code) && code >= 400 ? code : 500;
  return new UpstreamAttemptError('http', `error event (${status})`, { retryable: status === 429 || status >= 500, status });
}

export function parseGeminiCompletion(body: unknown): ParsedCompletion {
  const root = asObject(body);
  const error = errorOf(root);
  if (error) throw error;
  if (!Array.isArray(root.candidates) && root.promptFeedback === undefined) throw protocolFailure('response without candidates');
  const candidate = readCandidate(root);
  // No candidate at all means the prompt itself was blocked (promptFeedback.blockReason).
  const blocked = !Array.isArray(root.candidates) || root.candidates.length === 0;
  return {
    text: candidate.text,
    toolCalls: candidate.toolCalls,
    usage: geminiUsage(root.usageMetadata),
    finishReason: blocked ? 'content_filter' : normaliseGeminiFinish(candidate.finishReason, candidate.toolCalls.length > 0),
  };
}

/**
 * Each SSE event is a whole GenerateContentResponse. Function calls arrive complete in one part;
 * usageMetadata is repeated and the last one is final. There is no terminator event: the chunk
 * carrying finishReason ends the answer.
 */
export async function* parseGeminiStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<AdapterStreamEvent> {
  let usage: Usage | undefined;
  let finishReason: unknown;
  let sawToolCall = false;
  let blocked = false;
  for await (const sse of parseSse(chunks)) {
    const root = parseJsonEvent(sse.data);
    const error = errorOf(root);
    if (error) throw error;
    usage = geminiUsage(root.usageMetadata) ?? usage;
    if (asObject(root.promptFeedback).blockReason !== undefined) blocked = true;
    const candidate = readCandidate(root);
    if (candidate.text !== '') yield { type: 'delta', content: candidate.text };
    for (const toolCall of candidate.toolCalls) {
      sawToolCall = true;
      yield { type: 'tool_call', toolCall };
    }
    if (candidate.finishReason !== undefined) finishReason = candidate.finishReason;
  }
  if (finishReason !== undefined) yield { type: 'end', usage, finishReason: normaliseGeminiFinish(finishReason, sawToolCall) };
  else if (blocked) yield { type: 'end', usage, finishReason: 'content_filter' };
}
