import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { ChatMessage, ToolDefinition } from '../providers';

/**
 * Validation of a completion request as it arrives (plain objects, google.protobuf.Struct
 * already unwrapped). Everything a provider would reject with a 400 is refused here with
 * VALIDATION_FAILED and a message naming the field, so no upstream call is spent on it.
 */
export interface CompletionInput {
  projectId: number;
  /** Primary model identifier first, then its fallbacks (duplicates removed, order kept). */
  modelPath: string[];
  messages: ChatMessage[];
  tools: ToolDefinition[];
  maxTokens?: number;
  privateModelsOnly: boolean;
}

// Limits shared by the providers' function-calling APIs (OpenAI and Gemini: 64 characters of
// letters, digits, `_` and `-`; Bedrock the same with a 64-character cap).
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_MODEL_PATH = 10;
const MAX_MESSAGES = 2_000;
const MAX_TOOLS = 128;

const jsonObject = z.record(z.string(), z.unknown(), { message: 'must be an object' });

const toolCallSchema = z.object({
  id: z.string().trim().min(1, "can't be blank"),
  name: z.string().trim().min(1, "can't be blank"),
  arguments: jsonObject.optional().nullable(),
});

const messageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'must be one of system, user, assistant, tool' }),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).default([]),
    toolCallId: z.string().default(''),
    name: z.string().default(''),
  })
  .superRefine((message, ctx) => {
    if (message.toolCalls.length > 0 && message.role !== 'assistant') {
      ctx.addIssue({ code: 'custom', path: ['tool_calls'], message: 'are only allowed on assistant messages' });
    }
    if (message.role === 'tool' && message.toolCallId.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: "can't be blank on a tool message" });
    }
  });

const functionToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(TOOL_NAME, 'must be 1 to 64 letters, digits, underscores or dashes'),
    description: z.string().optional(),
    parameters: jsonObject.optional(),
  }),
});

const mcpToolSchema = z.object({
  type: z.literal('mcp'),
  server_label: z.string().trim().min(1, "can't be blank").max(64),
  server_url: z.string().url('must be a URL'),
  require_approval: z.unknown().optional(),
  vpc_only: z.boolean({ message: 'must be a boolean' }).optional(),
});

const toolSchema = z.discriminatedUnion('type', [functionToolSchema, mcpToolSchema], { message: 'must be function or mcp' });

const requestSchema = z.object({
  projectId: z.number().int().positive('must be a positive integer'),
  modelPath: z.array(z.string().trim().min(1, "can't be blank").max(200)).min(1, 'needs at least one model').max(MAX_MODEL_PATH),
  messages: z.array(messageSchema).min(1, 'needs at least one message').max(MAX_MESSAGES),
  tools: z.array(toolSchema).max(MAX_TOOLS).default([]),
  maxTokens: z.number().int().positive('must be a positive integer').optional().nullable(),
  privateModelsOnly: z.boolean().default(false),
});

/** proto field names in messages (tool_call_id, not toolCallId): what the caller wrote. */
function fieldPath(path: PropertyKey[]): string {
  return path
    .map((part, index) => {
      if (typeof part === 'number') return `[${part}]`;
      const name = String(part).replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      return index === 0 ? name : `.${name}`;
    })
    .join('');
}

export function parseCompletionInput(raw: unknown): CompletionInput {
  const parsed = requestSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => `${fieldPath(issue.path)} ${issue.message}`.trim());
    throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
  }
  const request = parsed.data;
  const errors: string[] = [];
  if (!request.messages.some((message) => message.role !== 'system')) errors.push('messages needs at least one non-system message');
  const names = new Set<string>();
  request.tools.forEach((tool, index) => {
    const name = tool.type === 'function' ? tool.function.name : `mcp:${tool.server_label}`;
    if (names.has(name)) errors.push(`tools[${index}] duplicates ${tool.type === 'function' ? `function ${tool.function.name}` : `MCP server ${tool.server_label}`}`);
    names.add(name);
  });
  if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });

  return {
    projectId: request.projectId,
    modelPath: [...new Set(request.modelPath)],
    messages: request.messages.map(toChatMessage),
    tools: request.tools.map(toToolDefinition),
    maxTokens: request.maxTokens ?? undefined,
    privateModelsOnly: request.privateModelsOnly,
  };
}

function toChatMessage(message: z.infer<typeof messageSchema>): ChatMessage {
  const chat: ChatMessage = { role: message.role, content: message.content };
  if (message.toolCalls.length > 0) {
    chat.toolCalls = message.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments ?? {} }));
  }
  if (message.toolCallId !== '') chat.toolCallId = message.toolCallId;
  if (message.name !== '') chat.name = message.name;
  return chat;
}

function toToolDefinition(tool: z.infer<typeof toolSchema>): ToolDefinition {
  if (tool.type === 'mcp') {
    return {
      type: 'mcp',
      server_label: tool.server_label,
      server_url: tool.server_url,
      ...(tool.require_approval !== undefined ? { require_approval: tool.require_approval } : {}),
      ...(tool.vpc_only !== undefined ? { vpc_only: tool.vpc_only } : {}),
    };
  }
  return {
    type: 'function',
    function: {
      name: tool.function.name,
      ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
      ...(tool.function.parameters !== undefined ? { parameters: tool.function.parameters } : {}),
    },
  };
}
