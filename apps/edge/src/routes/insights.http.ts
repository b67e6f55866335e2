import { Router } from 'express';
import type { insights } from '@gateway/proto';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { resourceId } from './projects.http';

export const insightJson = (i: insights.Insight) => ({
  id: i.id,
  insight_type: i.insightType,
  status: i.status,
  data: i.data ?? {},
  estimated_savings_usd: i.estimatedSavingsUsd,
  created_at: i.createdAt,
});

/**
 * Insights of a project (session). The caller must see the project (control-plane answers 404
 * otherwise). GET lists the active insights; POST .../refresh computes them now (202 with the
 * number of active insights); PATCH .../:insight_id/dismiss answers the insight, status `dismissed`.
 */
export function insightRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);
  const base = '/api/v1/projects/:project_id/insights';
  const visibleProject = async (actor: Parameters<EdgeClients['controlPlane']['getProject']>[0]['actor'], value: unknown) =>
    (await clients.controlPlane.getProject({ actor, projectId: resourceId(value) })).id;

  router.get(base, session, handle(async (req, res) => {
    const projectId = await visibleProject(req.actor, req.params.project_id);
    const { insights: list } = await clients.insights.listInsights({ projectId });
    res.json(list.map(insightJson));
  }));

  router.post(`${base}/refresh`, session, handle(async (req, res) => {
    const projectId = await visibleProject(req.actor, req.params.project_id);
    const { computed } = await clients.insights.refreshInsights({ projectId });
    res.status(202).json({ computed });
  }));

  router.patch(`${base}/:insight_id/dismiss`, session, handle(async (req, res) => {
    const projectId = await visibleProject(req.actor, req.params.project_id);
    const insight = await clients.insights.dismissInsight({ projectId, insightId: resourceId(req.params.insight_id) });
    res.json(insightJson(insight));
  }));
  return router;
}
