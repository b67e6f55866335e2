import { randomUUID } from 'node:crypto';
import { createServiceClient } from '@gateway/grpc';
import { common, events, ledger } from '@gateway/proto';
import { eventually } from '@gateway/testing';
import { LedgerTestStack, step } from './ledger-test-stack';

/**
 * Issue 6 over real gRPC against the production bundles of control-plane and ledger: completion
 * and grading (every letter), cost breakdowns, tool fidelity, shadow scores, the trace.completed
 * event, listing, ownership and the sealed-trace rules.
 */
describe('ledger traces: completion, grading and security (production mode)', () => {
  const it6 = new LedgerTestStack('ledger_completion');
  let projectId: number;
  let actor: common.Actor;

  beforeAll(async () => {
    await it6.start();
    ({ projectId, actor } = await it6.project('completion'));
  }, 120_000);
  afterAll(() => it6.stop(), 60_000);

  const newTrace = async (revenue?: number) => (await it6.ledger.createTrace({ actor, projectId, metadata: { case: expect.getState().currentTestName }, revenue, status: 'pending', sourceTraceId: '' })).id;
  const record = (traceId: string, fields: Partial<ledger.RecordStepRequest>) => it6.ledger.recordStep(step(projectId, actor, traceId, fields));
  const complete = (traceId: string) => it6.ledger.completeTrace({ actor, projectId, traceId });
  /** A routed run step; distinct inputs so the steps are not repeats (stall). */
  const run = (traceId: string, n: number, model: string, tier: string, cost: number, latencyMs = 100) =>
    record(traceId, { type: 'run', model, tier, cost, latencyMs, input: `question number ${n}`, output: `answer number ${n}` });

  describe('completion', () => {
    it('seals a pending trace, returns grades and the cost summary, and refuses a second completion', async () => {
      const traceId = await newTrace(1.5);
      await run(traceId, 1, 'mini', 'simple', 0.001);
      const completed = await complete(traceId);
      expect(completed.trace).toMatchObject({ id: traceId, status: 'completed' });
      expect(completed.trace!.completedAt).toEqual(expect.any(String));
      expect(completed.summary).toMatchObject({ totalCost: 0.001, revenue: 1.5, grossMargin: 1.499, optimizationGrade: 'A', grades: { overall: 'A', waste: 'A', latency: 'A' }, stepCount: 1 });

      await expect(complete(traceId)).rejects.toMatchObject({ code: 'CONFLICT', message: 'Trace already completed' });
      const fetched = await it6.ledger.getTrace({ actor, projectId, traceId });
      expect(fetched.trace!.status).toBe('completed');
      expect(fetched.summary!.grades).toEqual({ overall: 'A', waste: 'A', latency: 'A' });
    });

    it('refuses model, check and blocked steps on a completed trace but accepts a late log with a user rating, which re-grades', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'mini', 'simple', 0.001);
      expect((await complete(traceId)).summary!.optimizationGrade).toBe('A');
      for (const type of ['run', 'tool_call', 'check']) {
        await expect(record(traceId, { type, model: 'mini' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Trace already completed' });
      }
      await expect(record(traceId, { type: 'blocked', blockedReason: 'Request blocked by risk check' })).rejects.toMatchObject({ code: 'CONFLICT' });

      const log = await record(traceId, { type: 'log', output: { user_rating: 1 } });
      expect(log.type).toBe('log');
      const fetched = await it6.ledger.getTrace({ actor, projectId, traceId });
      expect(fetched.summary).toMatchObject({ stepCount: 2, optimizationGrade: 'B', grades: { overall: 'B', waste: 'A', latency: 'A' } });
      expect(fetched.summary!.gradeFindings.join(' ')).toContain('poor user rating');
    });

    it('seals a replay trace once (it stays replay) and refuses a foreign or unknown trace as NOT_FOUND', async () => {
      const replay = await it6.ledger.createTrace({ actor, projectId, metadata: {}, status: 'replay', sourceTraceId: await newTrace() });
      // A replay trace keeps its kind once sealed (spec state `replay`); completed_at marks the seal.
      const sealed = (await complete(replay.id)).trace!;
      expect(sealed.status).toBe('replay');
      expect(sealed.completedAt).toEqual(expect.any(String));
      await expect(complete(replay.id)).rejects.toMatchObject({ code: 'CONFLICT' });
      const other = await it6.project('other-complete');
      const foreign = await it6.ledger.createTrace({ actor: other.actor, projectId: other.projectId, metadata: {}, status: 'pending', sourceTraceId: '' });
      await expect(complete(foreign.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(complete(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(complete('not-a-uuid')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await it6.ledger.getTrace({ actor: other.actor, projectId: other.projectId, traceId: foreign.id })).trace!.status).toBe('pending');
    });
  });

  describe('grades through CompleteTrace', () => {
    it('A: the right model for the tier, fast', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'mini', 'simple', 0.0002);
      await run(traceId, 2, 'large', 'complex', 0.02);
      expect((await complete(traceId)).summary!.grades).toEqual({ overall: 'A', waste: 'A', latency: 'A' });
    });

    it('B: one step on a model more capable than its tier needed', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'large', 'simple', 0.01);
      await run(traceId, 2, 'mini', 'simple', 0.0002);
      const completed = await complete(traceId);
      expect(completed.summary!.grades).toEqual({ overall: 'B', waste: 'B', latency: 'A' });
      expect(completed.summary!.gradeFindings.join(' ')).toContain('large used for a simple input; mini (simple tier)');
    });

    it('C: two wasteful steps that are a small share of the spend', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'large', 'simple', 0.01);
      await run(traceId, 2, 'large', 'simple', 0.01);
      await run(traceId, 3, 'large', 'complex', 0.1);
      expect((await complete(traceId)).summary!.grades).toEqual({ overall: 'C', waste: 'C', latency: 'A' });
    });

    it('D: significant over-spend', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'large', 'simple', 0.01);
      await run(traceId, 2, 'large', 'simple', 0.01);
      await run(traceId, 3, 'mini', 'simple', 0.0001);
      expect((await complete(traceId)).summary!.grades).toEqual({ overall: 'D', waste: 'D', latency: 'A' });
    });

    it('F: a runaway tool chain (chain_depth above 5)', async () => {
      const traceId = await newTrace();
      let parent = (await run(traceId, 0, 'mini', 'simple', 0.0002)).id;
      for (let round = 1; round <= 6; round += 1) {
        const toolStep = await record(traceId, {
          type: 'tool_call',
          model: 'mini',
          tier: 'simple',
          cost: 0.0002,
          parentStepId: parent,
          input: `round ${round}`,
          output: { round },
          toolName: 'lookup',
          toolLatencyMs: 50,
          toolCalls: [{ id: `call-${round}`, name: 'lookup', arguments: { round } }],
        });
        parent = toolStep.id;
      }
      const completed = await complete(traceId);
      expect(completed.summary).toMatchObject({ chainDepth: 6, optimizationGrade: 'F', grades: { overall: 'F', waste: 'A', latency: 'A' }, toolOverheadMs: 300 });
      expect(completed.summary!.gradeFindings.join(' ')).toContain('chain depth 6 > 5');
    });

    it('latency: slow steps lower the latency grade', async () => {
      const traceId = await newTrace();
      await run(traceId, 1, 'mini', 'simple', 0.0002, 3_000);
      await run(traceId, 2, 'mini', 'simple', 0.0002, 100);
      await run(traceId, 3, 'mini', 'simple', 0.0002, 100);
      expect((await complete(traceId)).summary!.grades).toEqual({ overall: 'B', waste: 'A', latency: 'B' });
    });
  });

  describe('summary', () => {
    it('breaks the cost down by model and by infrastructure (recorded label, else the registry), on GetTrace and on completion', async () => {
      const traceId = await newTrace(0.5);
      await record(traceId, { type: 'run', model: 'mini', tier: 'simple', cost: 0.001, infrastructure: 'edge-reported', input: 'a' });
      await record(traceId, { type: 'run', model: 'large', tier: 'complex', cost: 0.02, input: 'b' });
      await record(traceId, { type: 'run', model: 'vault', tier: 'secure', cost: 0.003, input: 'c' });
      await record(traceId, { type: 'check', latencyMs: 5, piiDetected: true });
      const open = await it6.ledger.getTrace({ actor, projectId, traceId });
      expect(open.summary!.byModel).toEqual({ mini: 0.001, large: 0.02, vault: 0.003 });
      expect(open.summary!.byInfrastructure).toEqual({ 'edge-reported': 0.001, 'cloud-b': 0.02, 'on-prem': 0.003 });
      expect(open.summary!.optimizationGrade).toBe('');
      expect(open.routingDecision).toEqual({ tier: 'secure', model: 'vault' });
      expect(open.security).toMatchObject({ piiDetected: true, injectionAttempt: false, secretLeaked: false, toolFidelityScore: 1 });
      expect(open.security!.shadowScore).toBeUndefined();

      const completed = await complete(traceId);
      expect(completed.summary).toMatchObject({ totalCost: 0.024, revenue: 0.5, grossMargin: 0.476, stepCount: 4, chainDepth: 0, stallFlagged: false });
      expect(completed.summary!.toolOverheadMs).toBeUndefined();
      expect(completed.summary!.byModel).toEqual({ mini: 0.001, large: 0.02, vault: 0.003 });
      expect(completed.summary!.byInfrastructure).toEqual({ 'edge-reported': 0.001, 'cloud-b': 0.02, 'on-prem': 0.003 });
      expect(completed.summary!.latencyP50).toBeGreaterThan(0);
      expect(completed.steps).toHaveLength(4);
    });

    it('publishes trace.completed through the outbox in the completing transaction', async () => {
      const traceId = await newTrace(2);
      await run(traceId, 1, 'large', 'simple', 0.01);
      await complete(traceId);
      const rows = await eventually(async () => {
        const found = await it6.sql<{ payload: Buffer; published_at: Date | null }>(
          "SELECT payload, published_at FROM outbox_events WHERE subject = 'gateway.v1.trace.completed' AND created_at > now() - interval '5 minutes'",
        );
        const mine = found.filter((row) => events.TraceCompleted.decode(row.payload).traceId === traceId);
        return mine.length > 0 && mine.every((row) => row.published_at !== null) ? mine : undefined;
      });
      expect(rows).toHaveLength(1);
      const event = events.TraceCompleted.decode(rows[0]!.payload);
      expect(event).toMatchObject({ traceId, projectId, status: 'completed', totalCost: 0.01, revenue: 2, optimizationGrade: 'B', gradeWaste: 'B', gradeLatency: 'A', modelsUsed: ['large'] });
      expect(event.meta!.eventId).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('tool fidelity and shadow scores', () => {
    const offeredTools = {
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
        },
      ],
    };

    it('scores an invented tool name low and a valid call 1; the trace score is the mean', async () => {
      const traceId = await newTrace();
      const invented = await record(traceId, { type: 'tool_call', model: 'mini', offeredTools, toolCalls: [{ id: 'c1', name: 'launch_rockets', arguments: { target: 'moon' } }] });
      expect(invented.toolFidelityScore).toBe(0);
      expect((await it6.ledger.getTrace({ actor, projectId, traceId })).security!.toolFidelityScore).toBe(0);
      const valid = await record(traceId, { type: 'tool_call', model: 'mini', offeredTools, parentStepId: invented.id, toolCalls: [{ id: 'c2', name: 'get_weather', arguments: { city: 'Oslo' } }] });
      expect(valid.toolFidelityScore).toBe(1);
      const detail = await it6.ledger.getTrace({ actor, projectId, traceId });
      expect(detail.security!.toolFidelityScore).toBe(0.5);
      expect(detail.security!.toolFidelityScore).toBeLessThan(0.8);
    });

    it('stores shadow comparisons: shadow_score is their mean, a retry replaces, a completed trace still accepts them', async () => {
      const traceId = await newTrace();
      const first = await run(traceId, 1, 'mini', 'simple', 0.001);
      const second = await run(traceId, 2, 'mini', 'simple', 0.001);
      const shadow = (stepId: number, score: number) => it6.ledger.recordShadowResult({ actor, projectId, traceId, stepId, shadowModel: 'large', score, shadowCost: 0.01, shadowLatencyMs: 900 });
      expect(await shadow(first.id, 0.2)).toMatchObject({ traceId, stepId: first.id, shadowModel: 'large', score: 0.2 });
      await shadow(first.id, 0.9); // retry with the final score replaces the first one
      await shadow(second.id, 0.5);
      expect((await it6.ledger.getTrace({ actor, projectId, traceId })).security!.shadowScore).toBe(0.7);

      await complete(traceId);
      await it6.ledger.recordShadowResult({ actor, projectId, traceId, stepId: second.id, shadowModel: 'vault', score: 0.1, shadowCost: 0, shadowLatencyMs: 10 });
      expect((await it6.ledger.getTrace({ actor, projectId, traceId })).security!.shadowScore).toBe(0.5);

      await expect(shadow(first.id, 1.5)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'score must be between 0 and 1' });
      const elsewhere = await newTrace();
      await expect(it6.ledger.recordShadowResult({ actor, projectId, traceId: elsewhere, stepId: first.id, shadowModel: 'large', score: 1, shadowCost: 0, shadowLatencyMs: 0 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'step_id does not belong to this trace',
      });
    });
  });

  describe('steps', () => {
    it('honours idempotency keys and returns the tool-loop history from GetStep', async () => {
      const traceId = await newTrace();
      const conversationJson = JSON.stringify([{ role: 'user', content: 'weather in Oslo?' }]);
      const offeredTools = { tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }] };
      const fields = { type: 'tool_call', model: 'mini', tier: 'simple', input: 'weather in Oslo?', idempotencyKey: 'req-1', conversationJson, offeredTools, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] };
      const first = await record(traceId, fields);
      const again = await record(traceId, { ...fields, input: 'changed on retry' });
      expect(again.id).toBe(first.id);
      expect(Number.isInteger(first.id)).toBe(true);
      const fetched = await it6.ledger.getStep({ actor, projectId, traceId, stepId: first.id });
      expect(fetched).toMatchObject({ id: first.id, type: 'tool_call', input: 'weather in Oslo?', model: 'mini', conversationJson, offeredTools, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
      expect((await it6.ledger.getTrace({ actor, projectId, traceId })).steps).toHaveLength(1);
    });

    it('validates the step type and the parent step', async () => {
      const traceId = await newTrace();
      const otherTrace = await newTrace();
      const foreignParent = await run(otherTrace, 1, 'mini', 'simple', 0);
      await expect(record(traceId, { type: 'dance' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'type must be one of check, run, tool_call, log, blocked' });
      await expect(record(traceId, { type: 'run', parentStepId: foreignParent.id })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'parent_step_id does not belong to this trace' });
      await expect(record(traceId, { type: 'run', cost: -1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'cost must be a non-negative number' });
    });
  });

  describe('ownership', () => {
    it('answers 422 "Trace not found or not owned by this customer" for steps on a foreign or missing trace, 404 for reads', async () => {
      const other = await it6.project('other-owner');
      const foreign = await it6.ledger.createTrace({ actor: other.actor, projectId: other.projectId, metadata: {}, status: 'pending', sourceTraceId: '' });
      const foreignStep = await it6.ledger.recordStep(step(other.projectId, other.actor, foreign.id, { type: 'run', model: 'mini' }));
      const notOwned = { code: 'VALIDATION_FAILED', message: 'Trace not found or not owned by this customer' };
      await expect(record(foreign.id, { type: 'run', model: 'mini' })).rejects.toMatchObject(notOwned);
      await expect(record(randomUUID(), { type: 'log', output: { a: 1 } })).rejects.toMatchObject(notOwned);
      await expect(record('', { type: 'log' })).rejects.toMatchObject(notOwned);
      await expect(it6.ledger.recordShadowResult({ actor, projectId, traceId: foreign.id, stepId: foreignStep.id, shadowModel: 'large', score: 1, shadowCost: 0, shadowLatencyMs: 0 })).rejects.toMatchObject(notOwned);
      // an API-key actor of another project on a service call is refused the same way
      await expect(it6.ledger.recordStep(step(other.projectId, actor, foreign.id, { type: 'log' }))).rejects.toMatchObject(notOwned);
      await expect(it6.ledger.getTrace({ actor, projectId, traceId: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(it6.ledger.getStep({ actor, projectId, traceId: '', stepId: foreignStep.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(it6.ledger.getStep({ actor, projectId, traceId: foreign.id, stepId: foreignStep.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers GetTraceHeader with the trace as GetTrace has it, before and after completion, and NOT_FOUND for a foreign, missing or malformed id', async () => {
      const traceId = (await it6.ledger.createTrace({ actor, projectId, metadata: { team: 'search', n: 2 }, revenue: 0.5, status: 'pending', sourceTraceId: '' })).id;
      const open = await it6.ledger.getTraceHeader({ actor, projectId, traceId });
      expect(open).toEqual((await it6.ledger.getTrace({ actor, projectId, traceId })).trace);
      expect(open).toMatchObject({ id: traceId, projectId, status: 'pending', metadata: { team: 'search', n: 2 }, revenue: 0.5 });
      expect(open.completedAt).toBeUndefined();
      await run(traceId, 1, 'mini', 'simple', 0.001);
      const completed = (await complete(traceId)).trace!;
      expect(await it6.ledger.getTraceHeader({ actor, projectId, traceId })).toEqual(completed);
      expect(completed.completedAt).toEqual(expect.any(String));

      const other = await it6.project('header-owner');
      const foreign = await it6.ledger.createTrace({ actor: other.actor, projectId: other.projectId, metadata: {}, status: 'pending', sourceTraceId: '' });
      for (const id of [foreign.id, randomUUID(), 'not-a-uuid']) {
        await expect(it6.ledger.getTraceHeader({ actor, projectId, traceId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('pins a caller authenticated by an API key to its own project and keeps DeleteProjectData internal', async () => {
      const keyed = await it6.project('api-key-caller');
      const key = await it6.control.createKey({ actor: it6.owner, name: 'ledger-it', projectId: keyed.projectId, loopGuardExempt: true });
      const asKey = createServiceClient(ledger.LedgerServiceService, { address: it6.stack.address('ledger') });
      const auth = { metadata: { authorization: `Bearer ${key.rawKey}` } };
      try {
        const own = await asKey.createTrace({ actor: undefined, projectId: 0, metadata: {}, status: 'pending', sourceTraceId: '' }, auth);
        expect(own.projectId).toBe(keyed.projectId);
        const mine = await newTrace();
        await expect(asKey.getTrace({ actor: undefined, projectId: 0, traceId: mine }, auth)).rejects.toMatchObject({ code: 'NOT_FOUND' });
        await expect(asKey.deleteProjectData({ projectId: keyed.projectId }, auth)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
        expect((await asKey.getTrace({ actor: undefined, projectId: 0, traceId: own.id }, auth)).trace!.id).toBe(own.id);
      } finally {
        asKey.close();
      }
    });
  });

  describe('listing', () => {
    it('pages newest first, past the end, at 100 per page, and by status', async () => {
      const listed = await it6.project('listing');
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) {
        ids.push((await it6.ledger.createTrace({ actor: listed.actor, projectId: listed.projectId, metadata: { index }, status: 'pending', sourceTraceId: '' })).id);
      }
      await it6.ledger.completeTrace({ actor: listed.actor, projectId: listed.projectId, traceId: ids[0]! });
      const list = (page: number, perPage: number, status = '') => it6.ledger.listTraces({ actor: listed.actor, projectId: listed.projectId, page, perPage, status });

      const firstPage = await list(1, 2);
      expect(firstPage).toMatchObject({ page: 1, perPage: 2, total: 3, totalPages: 2 });
      expect(firstPage.traces.map((trace) => trace.id)).toEqual([ids[2], ids[1]]);
      expect((await list(2, 2)).traces.map((trace) => trace.id)).toEqual([ids[0]]);
      const beyond = await list(5, 2);
      expect(beyond).toMatchObject({ page: 5, total: 3, totalPages: 2 });
      expect(beyond.traces).toEqual([]);
      expect(await list(1, 100)).toMatchObject({ perPage: 100, total: 3, totalPages: 1 });
      expect((await list(1, 500)).perPage).toBe(100);
      expect((await list(0, 0)).page).toBe(1);
      expect((await list(0, 0)).perPage).toBe(50);
      const completed = await list(1, 50, 'completed');
      expect(completed.traces.map((trace) => trace.id)).toEqual([ids[0]]);
      expect(completed.total).toBe(1);
      expect((await list(1, 50, 'pending')).total).toBe(2);
      expect((await list(1, 50, 'failed')).traces).toEqual([]);
      await expect(list(1, 50, 'archived')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });
});
