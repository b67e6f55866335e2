import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { replay } from '@gateway/proto';
import type { EdgeClients } from '../clients';
import { keyOrSession, requestProject } from './api-key-access';
import { handle } from './async-handler';
import { requireSession } from '../auth/session.middleware';
import { parseOr400 } from './validation';

const models = (field: string) => z.array(z.string({ message: `${field} must be an array of model identifiers` }), { message: `${field} must be an array of model identifiers` }).optional();

export const replayBody = z.object({
  project_id: z.number({ message: 'project_id must be an integer' }).int().positive().optional().describe('with a session: the project (an API key acts on its own)'),
  trace_id: z.string({ message: 'trace_id is required' }).min(1, 'trace_id is required'),
  force_model: z.string({ message: 'force_model must be a model identifier' }).optional(),
  compare_models: models('compare_models'),
  force_models: models('force_models'),
  max_cost: z.number({ message: 'max_cost must be a number (USD)' }).optional(),
});

/** The job as GET /replay/:job_id and the 200 of a cached replay answer it. */
export const replayJobJson = (job: replay.ReplayJob) => ({
  job_id: job.jobId,
  status: job.status,
  ...(job.status === 'completed' ? (job.result ?? {}) : {}),
  ...(job.status === 'failed' ? { error: job.error || 'Replay failed' } : {}),
});

/**
 * Replay (API key). POST validates the body (400 on types; 422 from the replay service on
 * rules: force_model with compare_models, unregistered models, a trace not of this project) and
 * answers 202 {job_id, status} for a new or still running job, or 200 with the completed result
 * (overrides included) when the same trace and overrides were replayed within the hour.
 */
export function replayRoutes(clients: EdgeClients, access: RequestHandler[]): Router {
  const router = Router();
  // Servers use their API key; the dashboard its session with the project_id.
  const either = keyOrSession(access, requireSession(clients));
  router.post('/api/v1/replay', either, handle(async (req, res) => {
    const body = parseOr400(replayBody, req.body ?? {});
    const job = await clients.replay.requestReplay({
      actor: req.actor,
      projectId: await requestProject(req, clients),
      traceId: body.trace_id,
      overrides: { forceModel: body.force_model, compareModels: body.compare_models ?? [], forceModels: body.force_models ?? [], maxCost: body.max_cost },
    });
    if (job.cached) res.status(200).json(replayJobJson(job));
    else res.status(202).json({ job_id: job.jobId, status: job.status });
  }));

  router.get('/api/v1/replay/:job_id', either, handle(async (req, res) => {
    const job = await clients.replay.getReplayJob({ projectId: await requestProject(req, clients), jobId: String(req.params.job_id) });
    res.json(replayJobJson(job));
  }));
  return router;
}
