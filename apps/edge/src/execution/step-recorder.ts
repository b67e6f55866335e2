import { randomUUID } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import { ledger, type common } from '@gateway/proto';
import type { EdgeClients } from '../clients';

export interface Caller {
  projectId: number;
  actor: common.Actor;
}

export type StepFields = Partial<Omit<ledger.RecordStepRequest, 'actor' | 'projectId' | 'traceId' | 'idempotencyKey'>> & Pick<ledger.RecordStepRequest, 'type'>;

const TRACE_NOT_OWNED = 'Trace not found or not owned by this customer';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes steps to the ledger. Each step carries an idempotency key, so the retries that follow a
 * transient failure (ledger restarting, deadline hit after commit) never record it twice: a step
 * whose model call already cost money must not be lost.
 */
export class StepRecorder {
  constructor(
    private readonly clients: Pick<EdgeClients, 'ledger'>,
    private readonly logger: Logger,
    private readonly attempts = 4,
    /** Called once per recorded step (spend metrics: the USD the ledger bills). */
    private readonly onRecorded?: (projectId: number, step: ledger.RecordStepRequest) => void,
  ) {}

  async record(caller: Caller, traceId: string, fields: StepFields): Promise<ledger.Step> {
    // Fields not given take the contract's defaults; the idempotency key makes retries safe.
    const request = ledger.RecordStepRequest.fromPartial({ ...fields, actor: caller.actor, projectId: caller.projectId, traceId, idempotencyKey: randomUUID() });
    for (let attempt = 1; ; attempt++) {
      try {
        const step = await this.clients.ledger.recordStep(request);
        this.onRecorded?.(caller.projectId, request);
        return step;
      } catch (error) {
        const transient = error instanceof DomainError ? error.code === 'UNAVAILABLE' || error.code === 'INTERNAL' : true;
        if (!transient || attempt >= this.attempts) {
          if (transient) this.logger.error({ err: error, traceId, type: fields.type, model: request.model, cost: request.cost }, 'step could not be recorded');
          throw error;
        }
        await sleep(100 * 2 ** attempt);
      }
    }
  }

  /** The trace must exist in the caller's project and still accept steps. */
  async requireOpenTrace(caller: Caller, traceId: string): Promise<ledger.Trace> {
    if (!UUID.test(traceId)) throw new DomainError('VALIDATION_FAILED', TRACE_NOT_OWNED);
    let trace: ledger.Trace;
    try {
      trace = await this.clients.ledger.getTraceHeader({ actor: caller.actor, projectId: caller.projectId, traceId });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw new DomainError('VALIDATION_FAILED', TRACE_NOT_OWNED);
      throw error;
    }
    if (trace.status === 'completed') throw new DomainError('VALIDATION_FAILED', 'Trace is completed and accepts no new executions');
    return trace;
  }
}
