import { BehaviorStore, parseFailureHeader } from './behavior.store';

describe('BehaviorStore', () => {
  it('applies a rule to matching requests only, for its number of uses', () => {
    const store = new BehaviorStore();
    store.add({ model: 'gpt', fail: 503, times: 2 });
    expect(store.resolve('openai', 'other')).toEqual({});
    expect(store.resolve('openai', 'gpt').fail).toBe(503);
    expect(store.resolve('azure', 'gpt').fail).toBe(503);
    expect(store.resolve('openai', 'gpt').fail).toBeUndefined();
  });

  it('merges every matching rule, earlier rules winning per field', () => {
    const store = new BehaviorStore();
    store.add({ format: 'gemini', latencyMs: 5 });
    store.add({ fail: 'timeout', latencyMs: 99, cachedTokens: 3 });
    expect(store.resolve('gemini', 'm')).toEqual({ latencyMs: 5, fail: 'timeout', cachedTokens: 3 });
    store.clear();
    expect(store.resolve('gemini', 'm')).toEqual({});
  });

  it('refuses a non-positive times', () => {
    expect(() => new BehaviorStore().add({ times: 0 })).toThrow();
  });
});

describe('parseFailureHeader', () => {
  it('reads status codes and named modes, ignoring anything else', () => {
    expect(parseFailureHeader('503')).toBe(503);
    expect(parseFailureHeader('broken-stream')).toBe('broken-stream');
    expect(parseFailureHeader('timeout')).toBe('timeout');
    expect(parseFailureHeader('explode')).toBeUndefined();
    expect(parseFailureHeader(undefined)).toBeUndefined();
  });
});
