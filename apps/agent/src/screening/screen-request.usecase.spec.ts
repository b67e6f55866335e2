import { compilePolicy } from '../policy/local-policy.evaluator';
import type { ProjectPolicy } from '../policy/project-policy';
import { NO_PRIVATE_MODEL_REASON, RISK_REASON, screenRequest } from './screen-request.usecase';
import { collectTexts } from './screened-endpoints';

const compiled = (overrides: Partial<ProjectPolicy> = {}) =>
  compilePolicy({ projectId: 1, riskThreshold: 0.7, routingTiers: { simple: 'fast' }, blockedTerms: ['Project Falcon'], blockedPatterns: [], blockedTopics: [], ...overrides });

const vpcTool = { type: 'mcp', server_label: 'crm', server_url: 'https://crm.internal/mcp', vpc_only: true };

describe('screenRequest', () => {
  it('collects every string of a payload, keys included', () => {
    expect(collectTexts({ trace_id: 't', input: 'a', tools: [{ function: { description: 'b' } }], output: { 'key c': ['d', 1, null] } })).toEqual(['trace_id', 't', 'input', 'a', 'tools', 'function', 'description', 'b', 'output', 'key c', 'd']);
    expect(() => collectTexts(JSON.parse('['.repeat(100) + ']'.repeat(100)))).toThrow(RangeError);
  });

  it('blocks a policy hit in any field, with the spec reason', () => {
    for (const payload of [
      { trace_id: 't', input: 'Status of Project Falcon' },
      { trace_id: 't', tool_results: [{ tool_call_id: 'c', content: 'Project Falcon budget' }], parent_step_id: 1 },
      { trace_id: 't', output: { 'project falcon': true } },
    ]) {
      expect(screenRequest('executions', payload, compiled())).toEqual({ action: 'block', reason: RISK_REASON, checkReason: 'policy_violation', riskScore: 0.95, ruleIds: ['policy.blocked_term.0'] });
    }
  });

  it('forwards clean requests', () => {
    expect(screenRequest('executions', { trace_id: 't', input: 'What is the capital of France?' }, compiled())).toEqual({ action: 'forward' });
    expect(screenRequest('stream', { trace_id: 't', input: 'Tell me a story' }, compiled())).toEqual({ action: 'forward' });
  });

  it('keeps a vpc_only tool request in the network when the project has no secure tier', () => {
    const payload = { trace_id: 't', input: 'look up the customer', tools: [vpcTool] };
    expect(screenRequest('executions', payload, compiled())).toMatchObject({ action: 'block', reason: NO_PRIVATE_MODEL_REASON, checkReason: 'routing_policy' });
    expect(screenRequest('executions', payload, compiled({ routingTiers: { simple: 'fast', secure: 'vault' } }))).toEqual({ action: 'forward' });
    expect(screenRequest('executions', { ...payload, tools: [{ ...vpcTool, vpc_only: false }] }, compiled())).toEqual({ action: 'forward' });
  });
});
