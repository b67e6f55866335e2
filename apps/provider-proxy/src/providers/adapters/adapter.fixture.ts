import type { CompletionRequest, ModelTarget } from '../provider.types';
import type { AdapterStreamEvent } from './provider-adapter.types';

/** Shared inputs for the adapter unit specs (no I/O). */
export function modelTarget(overrides: Partial<ModelTarget> = {}): ModelTarget {
  return { identifier: 'model-a', provider: 'openai', apiKey: 'key-123', inputCostPer1k: 1, outputCostPer1k: 2, additionalConfig: {}, ...overrides };
}

export const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

/** A continuation: the assistant asked for two tools and both results came back. */
export const toolContinuation: CompletionRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_2', name: 'get_weather', arguments: { city: 'Rome' } },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', content: '{"temp":21}' },
    { role: 'tool', toolCallId: 'call_2', content: 'sunny' },
  ],
  tools: [weatherTool],
};

export async function* bytes(...chunks: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

export async function collect(events: AsyncIterable<AdapterStreamEvent>): Promise<AdapterStreamEvent[]> {
  const out: AdapterStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export const NOW = { now: new Date('2025-01-02T03:04:05Z') };
