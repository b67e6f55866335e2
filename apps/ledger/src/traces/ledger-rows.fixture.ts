import type { Step as StepRow, Trace as TraceRow } from '../generated/prisma/client';

/** Test-only rows as Prisma returns them. */
export const CREATED = new Date('2024-05-01T12:00:00.000Z');

export function traceRow(overrides: Partial<TraceRow> = {}): TraceRow {
  return {
    id: '7a0c1f56-3d7e-4a1e-9a57-4f3f8d1c2b10',
    projectId: 1n,
    status: 'pending',
    metadata: {},
    revenue: null,
    sourceTraceId: null,
    routingTier: null,
    routingModel: null,
    summary: null,
    optimizationGrade: null,
    grades: null,
    gradeFindings: null,
    security: null,
    retentionUntil: new Date(CREATED.getTime() + 30 * 86_400_000),
    createdAt: CREATED,
    completedAt: null,
    ...overrides,
  };
}

export function stepRow(id: number, overrides: Partial<StepRow> = {}): StepRow {
  const createdAt = new Date(CREATED.getTime() + id * 1_000);
  return {
    id: BigInt(id),
    traceId: '7a0c1f56-3d7e-4a1e-9a57-4f3f8d1c2b10',
    projectId: 1n,
    type: 'run',
    parentStepId: null,
    input: `question ${id}`,
    output: `answer ${id}`,
    model: 'mini',
    tier: 'simple',
    infrastructure: '',
    cost: 0.001,
    latencyMs: 100,
    promptTokens: 10,
    completionTokens: 10,
    cachedTokens: 0,
    blockedReason: '',
    toolCalls: [],
    toolName: '',
    toolLatencyMs: null,
    piiDetected: false,
    injectionAttempt: false,
    secretLeaked: false,
    riskScore: 0,
    toolFidelityScore: null,
    error: '',
    idempotencyKey: null,
    startedAt: null,
    conversationJson: null,
    offeredTools: null,
    retentionUntil: new Date(createdAt.getTime() + 30 * 86_400_000),
    createdAt,
    ...overrides,
  };
}
