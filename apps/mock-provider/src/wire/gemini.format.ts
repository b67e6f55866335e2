import { streamPieces } from '../answer.generator';
import type { MockAnswer, MockConversation, MockTool, MockTurn, MockUsage, RenderedJson, RenderedStream } from '../mock.types';
import { MockHttpError } from '../mock.types';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiError(status: number, message: string, reason?: string): MockHttpError {
  const error: Record<string, unknown> = { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' };
  if (reason) error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }];
  return new MockHttpError(status, { error });
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

// Fields of Gemini's OpenAPI-subset Schema; anything else (additionalProperties, $schema) is a 400.
const SCHEMA_FIELDS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

function checkSchema(schema: unknown, at: string): void {
  for (const [key, value] of Object.entries(record(schema))) {
    if (!SCHEMA_FIELDS.has(key)) throw geminiError(400, `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
    if (key === 'type' && typeof value !== 'string') throw geminiError(400, `Invalid value at '${at}.type'`);
    if (key === 'properties') for (const [name, sub] of Object.entries(record(value))) checkSchema(sub, `${at}.properties[${name}].value`);
    if (key === 'items') checkSchema(value, `${at}.items`);
    if (key === 'anyOf' && Array.isArray(value)) value.forEach((sub, i) => checkSchema(sub, `${at}.any_of[${i}]`));
  }
}

/**
 * Validates a generateContent body: roles user/model, a functionResponse turn right after the
 * functionCall turn with as many parts as there were calls and matching names.
 */
export function parseGeminiRequest(raw: unknown, model: string, stream: boolean): MockConversation {
  const body = record(raw);
  if (!Array.isArray(body.contents) || body.contents.length === 0) throw geminiError(400, '* GenerateContentRequest.contents: contents is not specified');
  const turns: MockTurn[] = [];
  let previousCalls: string[] = [];
  body.contents.forEach((rawContent, index) => {
    const content = record(rawContent);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') throw geminiError(400, `Please use a valid role: user, model.`);
    const parts = Array.isArray(content.parts) ? content.parts.map(record) : [];
    if (parts.length === 0) throw geminiError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`);
    const responses = parts.filter((part) => part.functionResponse !== undefined);
    if (responses.length > 0) {
      if (previousCalls.length === 0) throw geminiError(400, 'Please ensure that function response turn comes immediately after a function call turn.');
      if (responses.length !== previousCalls.length) {
        throw geminiError(400, 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
      }
      for (const part of responses) {
        const response = record(part.functionResponse);
        if (!previousCalls.includes(String(response.name))) throw geminiError(400, `function response name ${String(response.name)} does not match a function call`);
        turns.push({ role: 'tool', text: JSON.stringify(response.response ?? {}) });
      }
    }
    const calls = parts.filter((part) => part.functionCall !== undefined).map((part) => String(record(part.functionCall).name));
    if (calls.length > 0 && role !== 'model') throw geminiError(400, 'function call parts must come from the model role');
    const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
    if (text !== '' || role === 'model') turns.push({ role: role === 'model' ? 'assistant' : 'user', text });
    previousCalls = calls;
  });

  const tools: MockTool[] = [];
  (Array.isArray(body.tools) ? body.tools : []).forEach((rawTool, toolIndex) => {
    const declarations = record(rawTool).functionDeclarations;
    (Array.isArray(declarations) ? declarations : []).forEach((rawDeclaration, index) => {
      const declaration = record(rawDeclaration);
      if (typeof declaration.name !== 'string' || declaration.name === '') throw geminiError(400, `* GenerateContentRequest.tools[${toolIndex}].function_declarations[${index}].name: Name cannot be empty.`);
      checkSchema(declaration.parameters, `tools[${toolIndex}].function_declarations[${index}].parameters`);
      tools.push({ name: declaration.name, parameters: record(declaration.parameters) });
    });
  });
  const system = (Array.isArray(record(body.systemInstruction).parts) ? (record(body.systemInstruction).parts as unknown[]) : [])
    .map((part) => String(record(part).text ?? ''))
    .join('');
  return { model, stream, system, turns, tools, mcpServers: [], includeStreamUsage: true };
}

function usageBody(usage: MockUsage, completion: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { promptTokenCount: usage.promptTokens, totalTokenCount: usage.promptTokens + (completion ? usage.completionTokens : 0) };
  if (completion) body.candidatesTokenCount = usage.completionTokens;
  if (usage.cachedTokens > 0) body.cachedContentTokenCount = usage.cachedTokens;
  return body;
}

function candidate(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return { content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 };
}

function answerParts(answer: MockAnswer): unknown[] {
  return answer.kind === 'text' ? [{ text: answer.text }] : [{ functionCall: { name: answer.name, args: answer.arguments } }];
}

export function renderGeminiJson(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedJson {
  const body: Record<string, unknown> = { candidates: [candidate(answerParts(answer), 'STOP')], modelVersion: conversation.model, responseId: id };
  if (usage) body.usageMetadata = usageBody(usage, true);
  return { status: 200, body };
}

/** Every chunk is a full GenerateContentResponse; the last carries finishReason and final usage. */
export function renderGeminiStream(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedStream {
  const chunk = (data: Record<string, unknown>) => `data: ${JSON.stringify({ ...data, modelVersion: conversation.model, responseId: id })}\r\n\r\n`;
  const frames: string[] = [];
  if (answer.kind === 'text') {
    const pieces = streamPieces(answer.text);
    pieces.forEach((piece, index) => {
      const last = index === pieces.length - 1;
      frames.push(chunk({ candidates: [candidate([{ text: piece }], last ? 'STOP' : undefined)], ...(usage ? { usageMetadata: usageBody(usage, last) } : {}) }));
    });
  } else {
    frames.push(chunk({ candidates: [candidate(answerParts(answer), 'STOP')], ...(usage ? { usageMetadata: usageBody(usage, true) } : {}) }));
  }
  return { contentType: 'text/event-stream', frames, firstContent: 0 };
}
