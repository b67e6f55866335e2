import { DomainError } from '@gateway/errors';
import type { ReplayJobRecord } from './replay-job.types';
import type { ReplayStore } from './replay.store';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /replay/:job_id: a job of the caller's project; unknown, expired or foreign → NOT_FOUND. */
export class GetReplayJobUseCase {
  constructor(private readonly store: Pick<ReplayStore, 'getJob'>) {}

  async execute(projectId: number, jobId: string): Promise<ReplayJobRecord> {
    const job = JOB_ID.test(jobId) ? await this.store.getJob(jobId.toLowerCase()) : undefined;
    if (!job || job.projectId !== projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return job;
  }
}
