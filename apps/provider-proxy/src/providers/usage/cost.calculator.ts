import type { ChatMessage, ModelTarget, ToolCall, Usage } from '../provider.types';

/**
 * USD cost of one call: tokens × per-1k prices. Cached prompt tokens are billed at
 * (1 − cached_input_discount) of the input price when the registry sets a discount (0..1);
 * without one they cost the full input price.
 */
export function costUsd(usage: Usage, target: ModelTarget): number {
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const discount = cachedInputDiscount(target);
  const inputTokensEquivalent = usage.promptTokens - cached + cached * (1 - discount);
  const cost = (inputTokensEquivalent * target.inputCostPer1k + usage.completionTokens * target.outputCostPer1k) / 1000;
  // Rounded to 1e-10 USD so float noise does not show in ledgers.
  return Math.round(cost * 1e10) / 1e10;
}

export function cachedInputDiscount(target: ModelTarget): number {
  const raw = target.additionalConfig?.cached_input_discount;
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

// ~4 characters per token for English text: the usual rule of thumb, good enough for a fallback.
const CHARS_PER_TOKEN = 4;

/**
 * For a provider that sent no usage (some compatible servers, a stream cut after its last
 * delta): an estimate is closer to the truth than zero, and zero would make the call free.
 */
export function estimateUsage(messages: ChatMessage[], text: string, toolCalls: ToolCall[]): Usage {
  const prompt = messages.reduce((sum, message) => sum + message.content.length + JSON.stringify(message.toolCalls ?? []).length - 2, 0);
  const completion = text.length + toolCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.arguments).length, 0);
  return { promptTokens: Math.ceil(prompt / CHARS_PER_TOKEN), completionTokens: Math.ceil(completion / CHARS_PER_TOKEN), cachedTokens: 0 };
}
