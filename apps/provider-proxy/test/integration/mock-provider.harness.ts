// The mock-provider is a test double meant to run in-process in other apps' tests; this harness
// is the one place that reaches into it, until it is published under a path alias.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMockProvider, type MockProvider } from '../../../mock-provider/src/app';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DEFAULT_BEDROCK_CREDENTIALS } from '../../../mock-provider/src/provider.routes';
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { RecordedRequest } from '../../../mock-provider/src/mock.types';
import type { ModelTarget, ProviderName } from '../../src/providers';

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
