import { modelTarget, NOW } from './adapter.fixture';
import { createAzureAdapter } from './azure.adapter';

describe('azure adapter', () => {
  const azure = createAzureAdapter();

  it('calls the deployment URL with api-version and an api-key header, without a model field', () => {
    const request = azure.buildRequest(
      modelTarget({ provider: 'azure', baseUrl: 'https://res.openai.azure.com/', additionalConfig: { deployment: 'gpt4o-prod', api_version: '2024-06-01' } }),
      { messages: [{ role: 'user', content: 'hi' }] },
      { stream: false, ...NOW },
    );
    expect(request.url).toBe('https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01');
    expect(request.headers['api-key']).toBe('key-123');
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.parse(request.body).model).toBeUndefined();
  });

  it('derives the endpoint from additional_config.resource and the deployment from provider_model', () => {
    const request = azure.buildRequest(modelTarget({ provider: 'azure', additionalConfig: { resource: 'acme', provider_model: 'gpt-4o' } }), { messages: [] }, { stream: true, ...NOW });
    expect(request.url).toBe('https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    expect(JSON.parse(request.body).stream_options).toEqual({ include_usage: true });
  });

  it('reports a misconfiguration without base_url or resource, and refuses MCP', () => {
    expect(() => azure.buildRequest(modelTarget({ provider: 'azure' }), { messages: [] }, { stream: false, ...NOW })).toThrow('misconfigured');
    expect(azure.unsupportedReason(modelTarget(), { messages: [], tools: [{ type: 'mcp', server_label: 's', server_url: 'https://x' }] })).toBe(
      'MCP tools are not supported by provider azure',
    );
  });
});
