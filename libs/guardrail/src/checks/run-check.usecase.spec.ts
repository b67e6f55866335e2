import { DomainError } from '@gateway/errors';
import { MAX_INPUT_CHARS } from '../detection';
import { allFakeSecrets } from '../detection/secrets/fake-secret.factory';
import { RunCheckUseCase, type CheckCommand } from './run-check.usecase';

const SERVICE = { kind: 'service' } as const;

function useCase(settingsByProject: Record<number, Record<string, unknown>> = {}) {
  const loaded: number[] = [];
  const checks = new RunCheckUseCase(async (projectId) => {
    loaded.push(projectId);
    const settings = settingsByProject[projectId];
    if (settings === undefined) throw new DomainError('NOT_FOUND', 'Project not found');
    return settings;
  });
  const run = (command: Partial<CheckCommand>) => checks.execute({ text: '', direction: '', policy: undefined, projectId: 0, caller: SERVICE, ...command });
  return { run, loaded };
}

describe('RunCheckUseCase', () => {
  it('runs with the default policy when neither a policy nor a project is given', async () => {
    const { run, loaded } = useCase();
    await expect(run({ text: 'What is the capital of Portugal?' })).resolves.toMatchObject({ allowed: true, riskScore: 0 });
    expect(loaded).toEqual([]);
  });

  it("applies the project's policy_rules and risk_threshold when no policy is sent", async () => {
    const { run } = useCase({ 7: { risk_threshold: 0.3, routing_tiers: { simple: 'm' }, policy_rules: { blocked_terms: ['Project Falcon'] } } });
    await expect(run({ text: 'Status of project falcon?', projectId: 7 })).resolves.toMatchObject({ allowed: false, reason: 'policy_violation', policyViolation: true });
    // An email alone is borderline (0.45): allowed at 0.7, blocked at the project's 0.3.
    await expect(run({ text: 'Write to ana.ruiz@example.org', projectId: 7 })).resolves.toMatchObject({ allowed: false, reason: 'pii_detected' });
    await expect(run({ text: 'Write to ana.ruiz@example.org' })).resolves.toMatchObject({ allowed: true });
  });

  it('lets an explicit policy win over the project settings', async () => {
    const { run, loaded } = useCase({ 7: { policy_rules: { blocked_terms: ['falcon'] } } });
    const result = await run({ text: 'Status of falcon?', projectId: 7, policy: { blockedTerms: ['eagle'] } });
    expect(result).toMatchObject({ allowed: true, policyViolation: false });
    expect(loaded).toEqual([]);
  });

  it('treats a project without guardrail settings as the defaults', async () => {
    const { run } = useCase({ 3: {} });
    await expect(run({ text: 'Write to ana.ruiz@example.org', projectId: 3 })).resolves.toMatchObject({ allowed: true, piiDetected: true });
  });

  it('restricts API-key callers to their own project, which is also their default', async () => {
    const { run, loaded } = useCase({ 5: { policy_rules: { blocked_terms: ['crimson ledger'] } }, 6: {} });
    const caller = { kind: 'api_key', projectId: 5 } as const;
    await expect(run({ text: 'the crimson ledger', caller })).resolves.toMatchObject({ allowed: false, reason: 'policy_violation' });
    await expect(run({ text: 'the crimson ledger', caller, projectId: 5 })).resolves.toMatchObject({ allowed: false });
    await expect(run({ text: 'the crimson ledger', caller, projectId: 6 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(loaded).toEqual([5, 5]);
  });

  it('passes control-plane errors on (an unknown project is NOT_FOUND)', async () => {
    const { run } = useCase();
    await expect(run({ text: 'hello', projectId: 99 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses oversize text with PAYLOAD_TOO_LARGE naming the limit, before loading any policy', async () => {
    const { run, loaded } = useCase({ 7: {} });
    const error = await run({ text: 'a'.repeat(MAX_INPUT_CHARS + 1), projectId: 7 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(`limit of ${MAX_INPUT_CHARS} characters`) });
    expect(loaded).toEqual([]);
    await expect(run({ text: 'a'.repeat(MAX_INPUT_CHARS) })).resolves.toMatchObject({ allowed: true });
  });

  it('refuses an unknown direction and a negative project id with VALIDATION_FAILED', async () => {
    const { run } = useCase();
    await expect(run({ text: 'hi', direction: 'sideways' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'direction must be one of input, output' });
    await expect(run({ text: 'hi', projectId: -1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses unsafe or invalid request regexes with VALIDATION_FAILED naming the pattern', async () => {
    const { run } = useCase();
    await expect(run({ text: 'hi', policy: { blockedPatterns: ['(a+)+$'] } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/"\(a\+\)\+\$".*nested quantifier/),
    });
    await expect(run({ text: 'hi', policy: { blockedPatterns: ['[unclosed'] } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('"[unclosed"') });
    await expect(run({ text: 'hi', policy: { riskThreshold: 2 } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("fails closed on a project's stored policy that the guardrail cannot run, naming the project and pattern", async () => {
    const { run } = useCase({ 8: { policy_rules: { blocked_patterns: ['(\\w+\\s?)*$'] } }, 9: { policy_rules: { blocked_terms: 'not a list' } } });
    await expect(run({ text: 'hello', projectId: 8 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^Project 8 settings\.policy_rules: Invalid blocked pattern "\(\\w\+\\s\?\)\*\$"/),
    });
    await expect(run({ text: 'hello', projectId: 9 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('settings.policy_rules.blocked_terms') });
  });

  it('reports secrets in model output as secret_leaked', async () => {
    const { run } = useCase();
    const fake = allFakeSecrets(5).find((candidate) => candidate.ruleId === 'github-pat')!;
    await expect(run({ text: `Use this token: ${fake.secret}`, direction: 'output' })).resolves.toMatchObject({ allowed: false, reason: 'secret_leaked', secretLeaked: true });
  });
});
