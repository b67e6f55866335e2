import type { PolicyFetch } from '../policy/policy.source';
import { BlockResponder } from './block.responder';
import { RISK_REASON } from './screen-request.usecase';

const decision = { action: 'block' as const, reason: RISK_REASON, checkReason: 'policy_violation' as const, riskScore: 0.95, ruleIds: ['policy.blocked_term.0'] };

function responder(answer: PolicyFetch) {
  const calls: Array<{ method: string; path: string; authorization: string; body: unknown }> = [];
  const blocks = new BlockResponder({ call: async (method, path, authorization, body) => (calls.push({ method, path, authorization, body }), answer) }, '0.1.0');
  return { blocks, calls };
}

const recorded: PolicyFetch = { kind: 'answer', status: 200, body: { step_id: 42, trace_id: 't1', type: 'log' } };

describe('BlockResponder', () => {
  it('records a content-free log step and answers a blocked execution', async () => {
    const { blocks, calls } = responder(recorded);
    const payload = { trace_id: 't1', input: 'Status of Project Falcon' };
    await expect(blocks.answer('executions', payload, decision, 'Bearer k')).resolves.toEqual({ status: 200, body: { reason: RISK_REASON, step_id: 42 } });
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/logs',
        authorization: 'Bearer k',
        body: { trace_id: 't1', output: { gateway_agent: { blocked: true, endpoint: 'executions', reason: RISK_REASON, check_reason: 'policy_violation', rules: ['policy.blocked_term.0'], risk_score: 0.95, agent_version: '0.1.0' } } },
      },
    ]);
    expect(JSON.stringify(calls)).not.toContain('Falcon');
  });

  it('answers checks, simulate, logs and traces in their own shapes', async () => {
    const { blocks } = responder(recorded);
    await expect(blocks.answer('checks', { trace_id: 't1', input: 'x' }, decision, 'Bearer k')).resolves.toEqual({
      status: 200,
      body: { allowed: false, step_id: 42, reason: 'policy_violation', meta: { pii_detected: false, injection_attempt: false, secret_leaked: false, risk_score: 0.95, pii_entities: [] } },
    });
    await expect(blocks.answer('simulate', { input: 'x', project_id: 1 }, decision, 'Bearer k')).resolves.toEqual({ status: 200, body: { status: 'blocked', reason: RISK_REASON, fallback_path: [] } });
    await expect(blocks.answer('logs', { trace_id: 't1', output: {} }, decision, 'Bearer k')).resolves.toMatchObject({ status: 422 });
    await expect(blocks.answer('traces', { metadata: {} }, decision, 'Bearer k')).resolves.toMatchObject({ status: 422 });
  });

  it("passes on the gateway's refusal of the trace, and still blocks when the gateway is down", async () => {
    const foreign = responder({ kind: 'answer', status: 422, body: { error: 'Trace not found or not owned by this customer' } });
    await expect(foreign.blocks.answer('runs', { trace_id: 'other' }, decision, 'Bearer k')).resolves.toEqual({ status: 422, body: { error: 'Trace not found or not owned by this customer' } });
    const down = responder({ kind: 'unreachable', error: 'ECONNREFUSED' });
    await expect(down.blocks.answer('stream', { trace_id: 't1', input: 'x' }, decision, 'Bearer k')).resolves.toEqual({ status: 200, body: { reason: RISK_REASON, step_id: null } });
    const missing = responder(recorded);
    await expect(missing.blocks.answer('executions', { input: 'x' }, decision, 'Bearer k')).resolves.toEqual({ status: 400, body: { error: 'trace_id is required' } });
    expect(missing.calls).toHaveLength(0);
  });
});
