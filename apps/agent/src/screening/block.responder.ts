import type { GatewayForwarder } from '../forwarding/gateway.forwarder';
import type { ScreenDecision } from './screen-request.usecase';
import type { ScreenedEndpoint } from './screened-endpoints';

type Block = Extract<ScreenDecision, { action: 'block' }>;

export interface BlockAnswer {
  status: number;
  body: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The answer to a request stopped in the network, in the shape the gateway itself would give.
 * Where the request names a trace, the block is recorded there as a log step that carries no
 * content (endpoint, reason, rule ids, score): the trace shows that something was stopped,
 * never what.
 */
export class BlockResponder {
  constructor(
    private readonly gateway: Pick<GatewayForwarder, 'call'>,
    private readonly agentVersion: string,
  ) {}

  async answer(endpoint: ScreenedEndpoint, payload: unknown, decision: Block, authorization: string): Promise<BlockAnswer> {
    if (endpoint === 'simulate') return { status: 200, body: { status: 'blocked', reason: decision.reason, fallback_path: [] } };
    if (endpoint === 'traces') return { status: 422, body: { error: `Trace metadata blocked by private-network policy (${decision.checkReason})` } };

    const traceId = isObject(payload) ? payload.trace_id : undefined;
    // Without a trace the gateway would answer 400; the content still must not travel to learn that.
    if (typeof traceId !== 'string' || traceId.length === 0) return { status: 400, body: { error: 'trace_id is required' } };
    const record = await this.record(endpoint, traceId, decision, authorization);
    if (record.kind === 'refused') return { status: record.status, body: record.body };
    const stepId = record.kind === 'recorded' ? record.stepId : null;

    switch (endpoint) {
      case 'executions':
      case 'runs':
      case 'stream':
        return { status: 200, body: { reason: decision.reason, step_id: stepId } };
      case 'checks':
        return {
          status: 200,
          body: {
            allowed: false,
            step_id: stepId,
            reason: decision.checkReason,
            meta: { pii_detected: false, injection_attempt: false, secret_leaked: false, risk_score: decision.riskScore, pii_entities: [] },
          },
        };
      case 'logs':
        return { status: 422, body: { error: `Log output blocked by private-network policy (${decision.checkReason})` } };
    }
  }

  private async record(endpoint: ScreenedEndpoint, traceId: string, decision: Block, authorization: string): Promise<{ kind: 'recorded'; stepId: number } | { kind: 'refused'; status: number; body: unknown } | { kind: 'unrecorded' }> {
    const output = {
      gateway_agent: {
        blocked: true,
        endpoint,
        reason: decision.reason,
        check_reason: decision.checkReason,
        rules: decision.ruleIds,
        risk_score: decision.riskScore,
        agent_version: this.agentVersion,
      },
    };
    const answer = await this.gateway.call('POST', '/api/v1/logs', authorization, { trace_id: traceId, output });
    if (answer.kind === 'answer' && answer.status === 200 && isObject(answer.body) && typeof answer.body.step_id === 'number') return { kind: 'recorded', stepId: answer.body.step_id };
    // The trace is unknown or not the key's, or the key is refused: the same answer the gateway gives.
    if (answer.kind === 'answer' && answer.status >= 400 && answer.status < 500) return { kind: 'refused', status: answer.status, body: answer.body };
    // Gateway down: still blocked, never forwarded; the block just cannot be recorded.
    return { kind: 'unrecorded' };
  }
}
