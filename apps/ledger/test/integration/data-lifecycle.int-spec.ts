import { JetStreamEventBus, encodeEvent } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { events, Subjects, type common } from '@gateway/proto';
import { eventually } from '@gateway/testing';
import { keyActor, LedgerTestStack, step } from './ledger-test-stack';

const DAY_MS = 86_400_000;

/**
 * Issue 6 data lifecycle over the production bundles: project deletion (the project.changed
 * event and the internal RPC) and the scheduled retention purge (every 300 ms here).
 */
describe('ledger data lifecycle (production mode)', () => {
  const it6 = new LedgerTestStack('ledger_lifecycle', { LEDGER_RETENTION_INTERVAL_MS: '300', LEDGER_RETENTION_BATCH_SIZE: '2' });
  let bus: JetStreamEventBus;

  beforeAll(async () => {
    await it6.start();
    bus = await JetStreamEventBus.connectGateway({ servers: 'nats://127.0.0.1:4222', logger: createLogger({ service: 'ledger-it', level: 'silent' }), name: 'ledger-it' });
  }, 120_000);
  afterAll(async () => {
    await bus?.close();
    await it6.stop();
  }, 60_000);

  /** A trace with `steps` log steps in `projectId` (the ledger trusts the service's project id). */
  async function traceWithSteps(projectId: number, actor: common.Actor, steps: number, retentionDays = 0): Promise<string> {
    const trace = await it6.ledger.createTrace({ actor, projectId, metadata: {}, status: 'pending', sourceTraceId: '' });
    for (let index = 0; index < steps; index += 1) {
      await it6.ledger.recordStep(step(projectId, actor, trace.id, { type: 'run', model: 'mini', input: `q${index}`, retentionDays }));
    }
    return trace.id;
  }

  const count = async (table: 'traces' | 'steps' | 'shadow_results', projectId: number) =>
    Number((await it6.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE project_id = $1`, [projectId]))[0]!.n);

  describe('project deletion', () => {
    it('deletes every trace, step and shadow result of a project control-plane no longer has, on project.changed deleted', async () => {
      const { projectId: liveProject, actor: liveActor } = await it6.project('kept');
      // A project id control-plane never had: its deletion is confirmed by NOT_FOUND.
      const goneProject = 900_000_000 + Math.floor(Math.random() * 90_000_000);
      const goneActor = keyActor(it6.owner.organizationId, goneProject);
      const goneTrace = await traceWithSteps(goneProject, goneActor, 3);
      await traceWithSteps(goneProject, goneActor, 2);
      const goneStep = (await it6.ledger.getTrace({ actor: goneActor, projectId: goneProject, traceId: goneTrace })).steps[0]!;
      await it6.ledger.recordShadowResult({ actor: goneActor, projectId: goneProject, traceId: goneTrace, stepId: goneStep.id, shadowModel: 'large', score: 0.5, shadowCost: 0, shadowLatencyMs: 1 });
      await traceWithSteps(liveProject, liveActor, 2);
      expect(await count('steps', goneProject)).toBe(5);

      const publish = (projectId: number, change: string) => {
        const event = encodeEvent(Subjects.projectChanged, events.ProjectChanged, { projectId, organizationId: it6.owner.organizationId, change });
        return bus.publish(event.subject, event.data, { eventId: event.eventId, headers: event.headers });
      };
      // In order on one consumer: by the time the gone project's data is deleted, the events
      // before it were handled too.
      await publish(liveProject, 'deleted'); // control-plane still has it: kept
      await publish(goneProject, 'updated'); // not a deletion: kept for now
      await publish(goneProject, 'deleted');
      await eventually(async () => (await count('traces', goneProject)) === 0, 20_000);
      expect(await count('steps', goneProject)).toBe(0);
      expect(await count('shadow_results', goneProject)).toBe(0);
      expect(await count('traces', liveProject)).toBe(1);
      expect(await count('steps', liveProject)).toBe(2);
      await expect(it6.ledger.getTrace({ actor: goneActor, projectId: goneProject, traceId: goneTrace })).rejects.toMatchObject({ code: 'NOT_FOUND' });

      // Redelivery or a repeated event is harmless.
      await publish(goneProject, 'deleted');
      expect(await count('traces', liveProject)).toBe(1);
    });

    it('follows a real project deletion in control-plane', async () => {
      const { projectId, actor } = await it6.project('deleted-for-real');
      const traceId = await traceWithSteps(projectId, actor, 2);
      await it6.control.deleteProject({ actor: it6.owner, projectId });
      await eventually(async () => (await count('traces', projectId)) === 0 && (await count('steps', projectId)) === 0, 20_000);
      await expect(it6.ledger.getTrace({ actor, projectId, traceId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('DeleteProjectData removes a project in batches and is idempotent', async () => {
      const projectId = 800_000_000 + Math.floor(Math.random() * 90_000_000);
      const actor = keyActor(it6.owner.organizationId, projectId);
      for (let index = 0; index < 3; index += 1) await traceWithSteps(projectId, actor, 2);
      // batch size 2 in this stack: several statements per table
      expect(await it6.ledger.deleteProjectData({ projectId })).toEqual({ tracesDeleted: 3, stepsDeleted: 6 });
      expect(await it6.ledger.deleteProjectData({ projectId })).toEqual({ tracesDeleted: 0, stepsDeleted: 0 });
      expect((await it6.ledger.listTraces({ actor, projectId, page: 1, perPage: 50, status: '' })).total).toBe(0);
    });
  });

  describe('retention', () => {
    it('keeps a step for its model retention and the trace for the longest of its steps (at least the default)', async () => {
      const { projectId, actor } = await it6.project('retention-dates');
      const before = Date.now();
      const traceId = await traceWithSteps(projectId, actor, 0);
      const short = await it6.ledger.recordStep(step(projectId, actor, traceId, { type: 'run', model: 'mini', retentionDays: 7 }));
      const standard = await it6.ledger.recordStep(step(projectId, actor, traceId, { type: 'check', retentionDays: 0 }));
      const long = await it6.ledger.recordStep(step(projectId, actor, traceId, { type: 'run', model: 'vault', retentionDays: 90 }));
      const after = Date.now();
      const within = (iso: string, days: number) => {
        const at = Date.parse(iso);
        return at >= before + days * DAY_MS - 1_000 && at <= after + days * DAY_MS + 1_000;
      };
      expect(within(short.retentionUntil, 7)).toBe(true);
      expect(within(standard.retentionUntil, 30)).toBe(true);
      expect(within(long.retentionUntil, 90)).toBe(true);
      const [trace] = await it6.sql<{ retention_until: Date }>('SELECT retention_until FROM traces WHERE id = $1', [traceId]);
      expect(trace!.retention_until.toISOString()).toBe(long.retentionUntil);
      await expect(it6.ledger.recordStep(step(projectId, actor, traceId, { type: 'run', retentionDays: 5_000 }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('purges expired steps, then traces with nothing left, and leaves everything else', async () => {
      const { projectId, actor } = await it6.project('retention-purge');
      const mixed = await traceWithSteps(projectId, actor, 0);
      const expiredStep = await it6.ledger.recordStep(step(projectId, actor, mixed, { type: 'run', model: 'mini', input: 'old', retentionDays: 1 }));
      const freshStep = await it6.ledger.recordStep(step(projectId, actor, mixed, { type: 'run', model: 'large', input: 'new', retentionDays: 30 }));
      await it6.ledger.recordShadowResult({ actor, projectId, traceId: mixed, stepId: expiredStep.id, shadowModel: 'large', score: 0.3, shadowCost: 0, shadowLatencyMs: 1 });
      await it6.ledger.completeTrace({ actor, projectId, traceId: mixed });
      const allExpired = await traceWithSteps(projectId, actor, 3, 1);
      const untouched = await traceWithSteps(projectId, actor, 2, 1);
      const emptyExpired = await traceWithSteps(projectId, actor, 0);

      // Time travel: the data of `expiredStep`, of every step of `allExpired` and the row of
      // `emptyExpired` ran out a minute ago; `mixed` itself also ran out but still holds a fresh step.
      await it6.sql("UPDATE steps SET retention_until = now() - interval '1 minute' WHERE id = $1 OR trace_id = $2", [expiredStep.id, allExpired]);
      await it6.sql("UPDATE shadow_results SET retention_until = now() - interval '1 minute' WHERE step_id = $1", [expiredStep.id]);
      await it6.sql("UPDATE traces SET retention_until = now() - interval '1 minute' WHERE id = ANY($1::uuid[])", [[allExpired, emptyExpired, mixed]]);

      await eventually(async () => {
        const rows = await it6.sql<{ id: string }>('SELECT id FROM traces WHERE id = ANY($1::uuid[])', [[allExpired, emptyExpired]]);
        return rows.length === 0;
      }, 20_000);
      const remainingSteps = await it6.sql<{ id: string; trace_id: string }>('SELECT id, trace_id FROM steps WHERE project_id = $1 ORDER BY id', [projectId]);
      expect(remainingSteps.map((row) => Number(row.id))).not.toContain(expiredStep.id);
      expect(remainingSteps.filter((row) => row.trace_id === mixed).map((row) => Number(row.id))).toEqual([freshStep.id]);
      expect(remainingSteps.filter((row) => row.trace_id === untouched)).toHaveLength(2);
      expect(remainingSteps.filter((row) => row.trace_id === allExpired)).toHaveLength(0);
      expect(await count('shadow_results', projectId)).toBe(0);

      // The completed trace keeps its sealed summary although one of its steps is gone.
      const sealed = await it6.ledger.getTrace({ actor, projectId, traceId: mixed });
      expect(sealed.steps.map((s) => s.id)).toEqual([freshStep.id]);
      expect(sealed.summary).toMatchObject({ stepCount: 2 });
      expect(sealed.security!.shadowScore).toBe(0.3);
      await expect(it6.ledger.getTrace({ actor, projectId, traceId: allExpired })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await it6.ledger.getTrace({ actor, projectId, traceId: untouched })).steps).toHaveLength(2);
    });

    it('deletes outbox events published longer ago than the outbox retention and keeps recent ones', async () => {
      const { projectId, actor } = await it6.project('retention-outbox');
      await traceWithSteps(projectId, actor, 1);
      const rows = await eventually(async () => {
        const found = await it6.sql<{ id: string }>("SELECT id FROM outbox_events WHERE published_at IS NOT NULL AND created_at > now() - interval '1 minute' ORDER BY id DESC LIMIT 2");
        return found.length === 2 ? found : undefined;
      });
      const [old, recent] = rows.map((row) => row.id);
      await it6.sql("UPDATE outbox_events SET published_at = now() - interval '400 hours' WHERE id = $1", [old]);
      await eventually(async () => (await it6.sql('SELECT 1 FROM outbox_events WHERE id = $1', [old])).length === 0, 20_000);
      expect(await it6.sql('SELECT 1 FROM outbox_events WHERE id = $1', [recent])).toHaveLength(1);
    });
  });
});
