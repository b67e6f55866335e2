import type { CallContext } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { ledgerHandlers, type LedgerUseCases } from './ledger.grpc';
import { stepRow, traceRow } from './traces/ledger-rows.fixture';

const logger = createLogger({ service: 'ledger-test', level: 'silent' });
const context = (principal: CallContext['principal']): CallContext => ({ principal, metadata: {} as CallContext['metadata'], signal: new AbortController().signal, deadline: undefined, logger });
const service = context({ kind: 'service' });
const apiKey = context({ kind: 'api_key', keyId: 'ak_1', projectId: 7, organizationId: 1 });

function build() {
  const seen: { projectId?: number } = {};
  const useCases = {
    traces: { get: jest.fn(), list: jest.fn(), create: jest.fn() },
    completeTrace: { execute: jest.fn() },
    recordStep: {
      execute: jest.fn(async (projectId: number) => {
        seen.projectId = projectId;
        return stepRow(1);
      }),
    },
    getStep: { execute: jest.fn(async () => stepRow(1)) },
    recordShadowResult: { execute: jest.fn() },
    deleteProjectData: { execute: jest.fn(async () => ({ tracesDeleted: 2, stepsDeleted: 5, shadowResultsDeleted: 0 })) },
  };
  return { handlers: ledgerHandlers(useCases as unknown as LedgerUseCases), useCases, seen };
}

const stepRequest = (projectId: number, keyProjectId?: number) =>
  ({ actor: { userId: '', organizationId: 1, role: 'api_key', keyProjectId, keyId: 'ak_1', ip: '', userAgent: '' }, projectId, traceId: traceRow().id, type: 'run', toolCalls: [] }) as never;

describe('ledger gRPC adapter', () => {
  it('acts on the project a service names', async () => {
    const { handlers, seen } = build();
    await handlers.recordStep(stepRequest(3, 3), service);
    expect(seen.projectId).toBe(3);
  });

  it('refuses a service call whose API-key actor belongs to another project with the spec 422', async () => {
    const { handlers } = build();
    await expect(handlers.recordStep(stepRequest(3, 4), service)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Trace not found or not owned by this customer' });
    await expect(handlers.getTrace(stepRequest(3, 4), service)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pins an API key to its own project', async () => {
    const { handlers, seen } = build();
    await handlers.recordStep(stepRequest(0), apiKey);
    expect(seen.projectId).toBe(7);
    await expect(handlers.recordStep(stepRequest(8), apiKey)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('authorizes each item of a batch on its own: an API key reaches only its project', async () => {
    const { handlers, useCases } = build();
    const { results } = await handlers.recordSteps({ steps: [stepRequest(0), stepRequest(8), stepRequest(7)] }, apiKey);
    expect(results.map((result) => (result.step ? 'step' : result.error?.code))).toEqual(['step', 'VALIDATION_FAILED', 'step']);
    expect(results[1].error?.message).toBe('Trace not found or not owned by this customer');
    expect(useCases.recordStep.execute.mock.calls.map((call) => call[0])).toEqual([7, 7]);
  });

  it('keeps DeleteProjectData to services', async () => {
    const { handlers } = build();
    await expect(handlers.deleteProjectData({ projectId: 7 }, apiKey)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(handlers.deleteProjectData({ projectId: 7 }, service)).resolves.toEqual({ tracesDeleted: 2, stepsDeleted: 5 });
  });

  it('maps a step with the fields edge rebuilds a tool loop from', async () => {
    const { handlers } = build();
    const step = await handlers.getStep({ actor: undefined, projectId: 7, traceId: '', stepId: 1 }, service);
    expect(step).toMatchObject({ id: 1, type: 'run', input: 'question 1', output: 'answer 1', model: 'mini', toolCalls: [], conversationJson: '' });
  });
});
