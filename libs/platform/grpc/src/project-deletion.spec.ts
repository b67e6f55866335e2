import { encodeEvent } from '@gateway/bus';
import { DomainError } from '@gateway/errors';
import { createLogger } from '@gateway/logging';
import { events, Subjects, type controlplane } from '@gateway/proto';
import { ProjectPolicyCache } from './control-plane-caches';
import { eventTime, ProjectDeletionCheck, projectDeletedAt, projectDeletedHandler } from './project-deletion';

const policy = (projectId: number, status: string): controlplane.ProjectPolicy => ({ project: { id: projectId, status } as controlplane.Project, models: [] });

/** A control-plane stand-in answering from a mutable table of projects (absent → NOT_FOUND). */
function controlPlane(projects: Map<number, string>) {
  const calls: number[] = [];
  const client = {
    getProjectPolicy: async (ref: controlplane.ProjectRef) => {
      calls.push(ref.projectId);
      const status = projects.get(ref.projectId);
      if (status === undefined) throw new DomainError('NOT_FOUND', 'Project not found');
      return policy(ref.projectId, status);
    },
  };
  return { client, calls };
}

describe('ProjectDeletionCheck', () => {
  it('confirms a project control-plane no longer has (NOT_FOUND) or reports as deleted', async () => {
    const { client } = controlPlane(new Map([[2, 'deleted']]));
    const check = new ProjectDeletionCheck(new ProjectPolicyCache(client as never));
    await expect(check.isDeleted(1)).resolves.toBe(true);
    await expect(check.isDeleted(2)).resolves.toBe(true);
  });

  it('refuses for a live project, whatever its other status', async () => {
    const { client } = controlPlane(new Map([[3, 'active'], [4, 'archived'], [5, 'paused']]));
    const check = new ProjectDeletionCheck(new ProjectPolicyCache(client as never));
    for (const id of [3, 4, 5]) await expect(check.isDeleted(id)).resolves.toBe(false);
  });

  it('asks control-plane afresh although an answer is cached', async () => {
    const projects = new Map([[7, 'active']]);
    const { client, calls } = controlPlane(projects);
    const cache = new ProjectPolicyCache(client as never, 60_000);
    const check = new ProjectDeletionCheck(cache);
    await cache.get(7);
    await expect(check.isDeleted(7)).resolves.toBe(false);
    projects.delete(7);
    // Within the cache TTL: a cached "active" must not hide the deletion.
    await expect(check.isDeleted(7)).resolves.toBe(true);
    expect(calls).toEqual([7, 7, 7]);
  });

  it('propagates any other failure (the event is redelivered later)', async () => {
    const unavailable = new ProjectDeletionCheck(new ProjectPolicyCache({ getProjectPolicy: async () => Promise.reject(new DomainError('UNAVAILABLE', 'control-plane unreachable')) } as never));
    await expect(unavailable.isDeleted(8)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const broken = new ProjectDeletionCheck(new ProjectPolicyCache({ getProjectPolicy: async () => Promise.reject(new Error('socket hang up')) } as never));
    await expect(broken.isDeleted(8)).rejects.toThrow('socket hang up');
  });
});

describe('event and deletion times', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');

  it('reads an event time from its meta, and falls back to now', () => {
    expect(eventTime({ occurredAt: '2026-05-01T00:00:00.000Z' }, now)).toEqual(new Date('2026-05-01T00:00:00.000Z'));
    expect(eventTime({ occurredAt: '' }, now)).toEqual(now);
    expect(eventTime({ occurredAt: 'yesterday-ish' }, now)).toEqual(now);
    expect(eventTime(undefined, now)).toEqual(now);
  });

  it('dates a deletion at its event, never in the future', () => {
    expect(projectDeletedAt({ occurredAt: '2026-05-01T00:00:00.000Z' }, now)).toEqual(new Date('2026-05-01T00:00:00.000Z'));
    expect(projectDeletedAt({ occurredAt: '2030-01-01T00:00:00.000Z' }, now)).toEqual(now);
    expect(projectDeletedAt(undefined, now)).toEqual(now);
  });
});

describe('projectDeletedHandler', () => {
  function setup(gone: Set<number> | Error) {
    const deletions: { projectId: number; deletedAt: Date }[] = [];
    const asked: number[] = [];
    const handler = projectDeletedHandler('test', {
      deleteData: { execute: async (projectId, deletedAt) => (deletions.push({ projectId, deletedAt }), { rows: 0 }) },
      check: {
        isDeleted: async (projectId) => {
          asked.push(projectId);
          if (gone instanceof Error) throw gone;
          return gone.has(projectId);
        },
      },
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    const deliver = (projectId: number, change: string, occurredAt?: string) => {
      const event = encodeEvent(Subjects.projectChanged, events.ProjectChanged, { projectId, organizationId: 1, change, meta: occurredAt ? { occurredAt } : undefined });
      return handler({ subject: event.subject, data: event.data, eventId: event.eventId, headers: event.headers, deliveryCount: 1 });
    };
    return { deliver, deletions, asked };
  }

  it('deletes the data of a project control-plane confirms deleted, as of the event time', async () => {
    const { deliver, deletions } = setup(new Set([5]));
    await deliver(5, 'deleted', '2026-01-15T10:00:00.000Z');
    expect(deletions).toEqual([{ projectId: 5, deletedAt: new Date('2026-01-15T10:00:00.000Z') }]);
  });

  it('keeps the data of a project control-plane still has (a stray or forged event)', async () => {
    const { deliver, deletions, asked } = setup(new Set());
    await expect(deliver(6, 'deleted')).resolves.toBeUndefined();
    expect(asked).toEqual([6]);
    expect(deletions).toEqual([]);
  });

  it('ignores every other change without asking control-plane', async () => {
    const { deliver, deletions, asked } = setup(new Set([7]));
    for (const change of ['created', 'updated', 'archived', 'models_changed']) await deliver(7, change);
    await deliver(0, 'deleted');
    expect(asked).toEqual([]);
    expect(deletions).toEqual([]);
  });

  it('fails (the event is redelivered) while control-plane cannot answer', async () => {
    const { deliver, deletions } = setup(new Error('control-plane unreachable'));
    await expect(deliver(8, 'deleted')).rejects.toThrow('control-plane unreachable');
    expect(deletions).toEqual([]);
  });

  it('never dates a deletion in the future', async () => {
    const { deliver, deletions } = setup(new Set([9]));
    const before = Date.now();
    await deliver(9, 'deleted', '2999-01-01T00:00:00.000Z');
    expect(deletions[0]!.deletedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(deletions[0]!.deletedAt.getTime()).toBeLessThanOrEqual(Date.now());
  });
});
