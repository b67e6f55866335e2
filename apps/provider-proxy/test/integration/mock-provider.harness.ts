// The mock-provider is a test double meant to run in-process in other apps' tests; this harness
// is the one place that reaches into it, until it is published under a path alias.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMockProvider, type MockProvider } from '../../../mock-provider/src/app';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DEFAULT_BEDROCK_CREDENTIALS } from '../../../mock-provider/src/provider.routes';
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { RecordedRequest } from '../../../mock-provider/src/mock.types';
import type { ChatMessage, ModelTarget, ProviderName } from '../../src/providers';

/** Keys the mock is configured to accept; any other key gets the provider's 401/403. */
export const MOCK_KEYS = {
  openai: 'sk-test-openai-0123456789',
  azure: 'azure-test-key-0123456789',
  anthropic: 'sk-ant-test-0123456789',
  gemini: 'AIza-test-gemini-0123456789',
  bedrock: `${DEFAULT_BEDROCK_CREDENTIALS.accessKeyId}:${DEFAULT_BEDROCK_CREDENTIALS.secretAccessKey}`,
} as const;

/** Upstream model names the mock will see (bedrock's contains ':' to exercise path encoding). */
export const UPSTREAM_MODELS: Record<ProviderName, string> = {
  openai: 'gpt-4o-mini',
  internal: 'llama-3.1-8b-instruct',
  azure: 'gpt4o-deployment',
  anthropic: 'claude-3-5-haiku-latest',
  gemini: 'gemini-2.0-flash',
  bedrock: 'anthropic.claude-3-haiku-20240307-v1:0',
};

export type { RecordedRequest };

export interface MockHarness {
  mock: MockProvider;
  baseUrl: string;
  target(provider: ProviderName, overrides?: Partial<ModelTarget>): ModelTarget;
  close(): Promise<void>;
}

export async function startMockProvider(): Promise<MockHarness> {
  const mock = createMockProvider({
    credentials: { openai: MOCK_KEYS.openai, azure: MOCK_KEYS.azure, anthropic: MOCK_KEYS.anthropic, gemini: MOCK_KEYS.gemini, bedrock: [DEFAULT_BEDROCK_CREDENTIALS] },
  });
  const { port } = await mock.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;

  function target(provider: ProviderName, overrides: Partial<ModelTarget> = {}): ModelTarget {
    const base: ModelTarget = {
      identifier: `${provider}-model`,
      provider,
      inputCostPer1k: 0.5,
      outputCostPer1k: 1.5,
      additionalConfig: { provider_model: UPSTREAM_MODELS[provider] },
    };
    switch (provider) {
      case 'openai':
        Object.assign(base, { baseUrl: `${baseUrl}/v1`, apiKey: MOCK_KEYS.openai });
        break;
      case 'internal':
        Object.assign(base, { baseUrl: `${baseUrl}/internal/v1` });
        break;
      case 'azure':
        Object.assign(base, { baseUrl, apiKey: MOCK_KEYS.azure, additionalConfig: { deployment: UPSTREAM_MODELS.azure, api_version: '2024-10-21' } });
        break;
      case 'anthropic':
        Object.assign(base, { baseUrl, apiKey: MOCK_KEYS.anthropic });
        break;
      case 'gemini':
        Object.assign(base, { baseUrl, apiKey: MOCK_KEYS.gemini });
        break;
      case 'bedrock':
        Object.assign(base, { baseUrl, apiKey: MOCK_KEYS.bedrock, additionalConfig: { provider_model: UPSTREAM_MODELS.bedrock, region: 'us-east-1' } });
        break;
    }
    return { ...base, ...overrides, additionalConfig: { ...base.additionalConfig, ...(overrides.additionalConfig ?? {}) } };
  }

  return { mock, baseUrl, target, close: () => mock.close() };
}

export const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false },
  },
};

export interface CapturedLog {
  entries: Array<{ obj: object; msg: string }>;
  warn(obj: object, msg: string): void;
}

export function captureLogger(): CapturedLog {
  const entries: Array<{ obj: object; msg: string }> = [];
  return { entries, warn: (obj, msg) => entries.push({ obj, msg }) };
}

export const PROVIDERS: ProviderName[] = ['openai', 'internal', 'azure', 'anthropic', 'gemini', 'bedrock'];
export const QUESTION = 'What is the capital of France and why is it famous?';
export const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: QUESTION },
];
export const EXPECTED_ANSWER = `Mock answer to: ${QUESTION.slice(0, 40)}`;

type Body = Record<string, unknown>;
const body = (entry: RecordedRequest) => entry.body as Body;

/** What each provider's real API expects on the wire for MESSAGES. */
export const REQUEST_SHAPE: Record<ProviderName, (entry: RecordedRequest) => void> = {
  openai: (entry) => {
    expect(entry.path).toBe('/v1/chat/completions');
    expect(entry.headers.authorization).toBe(`Bearer ${MOCK_KEYS.openai}`);
    expect(body(entry).model).toBe(UPSTREAM_MODELS.openai);
    expect(body(entry).messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: QUESTION },
    ]);
  },
  internal: (entry) => {
    expect(entry.path).toBe('/internal/v1/chat/completions');
    expect(entry.headers.authorization).toBeUndefined();
    expect(body(entry).model).toBe(UPSTREAM_MODELS.internal);
  },
  azure: (entry) => {
    expect(entry.path).toBe(`/openai/deployments/${UPSTREAM_MODELS.azure}/chat/completions`);
    expect(entry.query['api-version']).toBe('2024-10-21');
    expect(entry.headers['api-key']).toBe(MOCK_KEYS.azure);
    expect(entry.headers.authorization).toBeUndefined();
  },
  anthropic: (entry) => {
    expect(entry.path).toBe('/v1/messages');
    expect(entry.headers['x-api-key']).toBe(MOCK_KEYS.anthropic);
    expect(entry.headers['anthropic-version']).toBe('2023-06-01');
    expect(body(entry).model).toBe(UPSTREAM_MODELS.anthropic);
    expect(body(entry).system).toBe('You are terse.');
    expect(body(entry).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: QUESTION }] }]);
  },
  gemini: (entry) => {
    expect(entry.path).toMatch(new RegExp(`^/v1beta/models/${UPSTREAM_MODELS.gemini}:(generateContent|streamGenerateContent)$`));
    expect(entry.headers['x-goog-api-key']).toBe(MOCK_KEYS.gemini);
    expect(entry.query.key).toBeUndefined();
    expect(body(entry).systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
  },
  bedrock: (entry) => {
    expect(entry.path).toMatch(/^\/model\/anthropic\.claude-3-haiku-20240307-v1%3A0\/(converse|converse-stream)$/);
    expect(entry.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKPROVIDER0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z;-]*host[a-z;-]*, Signature=[0-9a-f]{64}$/);
    expect(entry.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(body(entry).system).toEqual([{ text: 'You are terse.' }]);
  },
};

/** What the wrong key gets from each provider (gemini answers 400 API_KEY_INVALID, bedrock 403). */
export const WRONG_KEY: Partial<Record<ProviderName, { apiKey: string; status: number }>> = {
  openai: { apiKey: 'sk-wrong-secret-value-42', status: 401 },
  azure: { apiKey: 'azure-wrong-secret-value-42', status: 401 },
  anthropic: { apiKey: 'sk-ant-wrong-secret-value-42', status: 401 },
  gemini: { apiKey: 'AIza-wrong-secret-value-42', status: 400 },
  bedrock: { apiKey: 'AKIAMOCKPROVIDER0001:wrong-secret-value-42', status: 403 },
};

/** How each provider carries the offered weather tool (first request) on the wire. */
export const TOOL_SHAPE: Record<ProviderName, (entry: RecordedRequest) => void> = {
  openai: (entry) => expect(body(entry).tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: weatherTool.function.description, parameters: weatherTool.function.parameters } }]),
  internal: (entry) => expect(body(entry).tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) }]),
  azure: (entry) => expect(body(entry).tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) }]),
  anthropic: (entry) => expect(body(entry).tools).toEqual([{ name: 'get_weather', description: weatherTool.function.description, input_schema: weatherTool.function.parameters }]),
  gemini: (entry) => expect(body(entry).tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'get_weather', parameters: expect.objectContaining({ type: expect.stringMatching(/^object$/i) }) })] }]),
  bedrock: (entry) => expect((body(entry).toolConfig as Body).tools).toEqual([{ toolSpec: { name: 'get_weather', description: weatherTool.function.description, inputSchema: { json: weatherTool.function.parameters } } }]),
};

/** How each provider carries the tool result (last turn of the continuation) on the wire. */
export const TOOL_RESULT_SHAPE: Record<ProviderName, (entry: RecordedRequest, callId: string, content: string) => void> = {
  openai: (entry, callId, content) => expect((body(entry).messages as Body[]).at(-1)).toEqual({ role: 'tool', tool_call_id: callId, content }),
  internal: (entry, callId, content) => expect((body(entry).messages as Body[]).at(-1)).toEqual({ role: 'tool', tool_call_id: callId, content }),
  azure: (entry, callId, content) => expect((body(entry).messages as Body[]).at(-1)).toEqual({ role: 'tool', tool_call_id: callId, content }),
  anthropic: (entry, callId, content) =>
    expect((body(entry).messages as Body[]).at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content }] }),
  gemini: (entry) => expect((body(entry).contents as Body[]).at(-1)).toMatchObject({ role: 'user', parts: [{ functionResponse: { name: 'get_weather' } }] }),
  bedrock: (entry, callId) => expect((body(entry).messages as Body[]).at(-1)).toMatchObject({ role: 'user', content: [{ toolResult: { toolUseId: callId } }] }),
};
