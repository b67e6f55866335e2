import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { EdgeClients } from '../clients';
import { keyOrSession, requestProject } from './api-key-access';
import { handle } from './async-handler';
import { requireSession } from '../auth/session.middleware';
import { traceCompletedJson, traceDetailJson, traceJson } from './trace.serializers';
import { parseOr400 } from './validation';

export const createBody = z
  .object({
    metadata: z.record(z.string(), z.unknown(), { message: 'metadata must be an object' }).optional(),
    revenue: z.number({ message: 'revenue must be a number' }).nonnegative('revenue must be non-negative').optional(),
  })
  .passthrough();

/** With a session (dashboard): the project to read; an API key reads its own project. */
export const projectQuery = z.object({ project_id: z.coerce.number({ message: 'project_id must be a positive integer' }).int().positive().optional() });

export const listQuery = projectQuery.extend({
  page: z.coerce.number().int().min(1, 'page must be at least 1').default(1),
  per_page: z.coerce.number().int().min(1, 'per_page must be between 1 and 100').max(100, 'per_page must be between 1 and 100').default(50),
  status: z.enum(['pending', 'completed', 'replay', 'failed'], { message: 'status must be one of pending, completed, replay, failed' }).optional(),
});

export function traceRoutes(clients: EdgeClients, access: RequestHandler[]): Router {
  const router = Router();
  // Reads also serve the dashboard (session + project_id); writes take an API key only.
  const either = keyOrSession(access, requireSession(clients));

  router.post('/api/v1/traces', ...access, handle(async (req, res) => {
    const body = parseOr400(createBody, req.body ?? {}, 422);
    if (req.key!.projectStatus === 'archived') throw new DomainError('VALIDATION_FAILED', 'Project is archived: new traces and executions are refused');
    const trace = await clients.ledger.createTrace({ actor: req.actor, projectId: req.key!.projectId, metadata: body.metadata, revenue: body.revenue, status: 'pending', sourceTraceId: '' });
    res.status(201).json(traceJson(trace));
  }));

  router.get('/api/v1/traces', either, handle(async (req, res) => {
    const query = parseOr400(listQuery, req.query);
    const page = await clients.ledger.listTraces({ actor: req.actor, projectId: await requestProject(req, clients), page: query.page, perPage: query.per_page, status: query.status ?? '' });
    res.json({ data: page.traces.map(traceJson), pagination: { page: page.page, per_page: page.perPage, total: page.total, total_pages: page.totalPages } });
  }));

  router.get('/api/v1/traces/:id', either, handle(async (req, res) => {
    const detail = await clients.ledger.getTrace({ actor: req.actor, projectId: await requestProject(req, clients), traceId: String(req.params.id) });
    res.json(traceDetailJson(detail));
  }));

  router.patch('/api/v1/traces/:id/complete', ...access, handle(async (req, res) => {
    const detail = await clients.ledger.completeTrace({ actor: req.actor, projectId: req.key!.projectId, traceId: String(req.params.id) });
    res.json(traceCompletedJson(detail));
  }));
  return router;
}
