import { loadMockProviderEnv } from './env';

describe('loadMockProviderEnv', () => {
  it('applies defaults and treats empty strings as unset', () => {
    expect(loadMockProviderEnv({ MOCK_LATENCY_MS: '' })).toMatchObject({ MOCK_PROVIDER_PORT: 8090, MOCK_PROVIDER_HOST: '127.0.0.1', MOCK_LATENCY_MS: 0, MOCK_REQUEST_LOG_LIMIT: 1000 });
  });

  it('coerces numbers and rejects bad values, naming the variable', () => {
    expect(loadMockProviderEnv({ MOCK_PROVIDER_PORT: '0', MOCK_LATENCY_MS: '25' })).toMatchObject({ MOCK_PROVIDER_PORT: 0, MOCK_LATENCY_MS: 25 });
    expect(() => loadMockProviderEnv({ MOCK_LATENCY_MS: '-1' })).toThrow('MOCK_LATENCY_MS');
  });

  it('requires both AWS variables or neither, without echoing the secret', () => {
    expect(() => loadMockProviderEnv({ MOCK_AWS_SECRET_ACCESS_KEY: 'very-secret' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('very-secret') }));
    expect(loadMockProviderEnv({ MOCK_AWS_ACCESS_KEY_ID: 'AKID', MOCK_AWS_SECRET_ACCESS_KEY: 's' })).toMatchObject({ MOCK_AWS_ACCESS_KEY_ID: 'AKID' });
  });
});
