import { DomainError } from '@gateway/errors';
import { retentionDaysOf, validateRecordStep, type RecordStepInput } from './record-step.validation';

const valid: RecordStepInput = { traceId: 't', type: 'run', model: 'mini', tier: 'simple', cost: 0.01, latencyMs: 120, promptTokens: 3, completionTokens: 4 };

function errorsOf(input: Partial<RecordStepInput>): string[] {
  try {
    validateRecordStep({ ...valid, ...input });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).errors ?? [];
  }
}

describe('validateRecordStep', () => {
  it('accepts a well-formed step of each type', () => {
    for (const type of ['check', 'run', 'tool_call', 'log']) expect(errorsOf({ type })).toEqual([]);
    expect(errorsOf({ type: 'blocked', blockedReason: 'Request blocked by risk check' })).toEqual([]);
  });

  it('refuses an unknown type or tier', () => {
    expect(errorsOf({ type: 'teleport' })).toEqual(['type must be one of check, run, tool_call, log, blocked']);
    expect(errorsOf({ tier: 'medium' })).toEqual(['tier must be one of simple, complex, secure or empty']);
  });

  it('refuses negative or non-finite amounts and fractional tokens', () => {
    expect(errorsOf({ cost: -1, latencyMs: Number.NaN, promptTokens: 1.5, toolLatencyMs: Number.POSITIVE_INFINITY })).toEqual([
      'cost must be a non-negative number',
      'latency_ms must be a non-negative number',
      'tool_latency_ms must be a non-negative number',
      'prompt_tokens must be a non-negative integer',
    ]);
  });

  it('keeps scores within 0..1', () => {
    expect(errorsOf({ riskScore: 1.5, toolFidelityScore: -0.1 })).toEqual(['risk_score must be between 0 and 1', 'tool_fidelity_score must be between 0 and 1']);
  });

  it('requires a reason on blocked steps', () => {
    expect(errorsOf({ type: 'blocked' })).toEqual(['blocked_reason is required for a blocked step']);
  });

  it('checks started_at, conversation_json, retention_days and tool call names', () => {
    expect(errorsOf({ startedAt: 'yesterday', conversationJson: '{not json', retentionDays: -1, toolCalls: [{ id: 'c1', name: '', arguments: {} }] })).toEqual([
      'started_at must be an ISO8601 time',
      'retention_days must be between 0 and 3650',
      'tool_calls[0].name must be 1 to 200 characters',
      'conversation_json must be JSON',
    ]);
    expect(errorsOf({ startedAt: '2024-05-01T12:00:00.000Z', conversationJson: '[{"role":"user","content":"hi"}]', retentionDays: 7 })).toEqual([]);
  });

  it('bounds labels', () => {
    expect(errorsOf({ model: 'm'.repeat(201) })).toEqual(['model must be at most 200 characters']);
  });

  it('uses the first problem as the message', () => {
    expect(() => validateRecordStep({ ...valid, type: 'x', cost: -1 })).toThrow('type must be one of check, run, tool_call, log, blocked');
  });
});

describe('retentionDaysOf', () => {
  it('is the model retention, else the default', () => {
    expect(retentionDaysOf({ retentionDays: 7 })).toBe(7);
    expect(retentionDaysOf({ retentionDays: 0 })).toBe(30);
    expect(retentionDaysOf({}, 45)).toBe(45);
  });
});
