import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { analytics } from '@gateway/proto';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { keyOrSession } from './api-key-access';
import { handle } from './async-handler';
import { parseOr400 } from './validation';

export const statsQuery = z
  .object({
    project_id: z.coerce.number({ message: 'project_id must be an integer' }).int('project_id must be an integer').positive('project_id must be an integer').optional(),
    window: z.coerce.number({ message: 'window must be a whole number of hours' }).int('window must be a whole number of hours').min(1, 'window must be at least 1 hour').max(8_784, 'window may be at most 8784 hours').optional(),
    start_date: z.string({ message: 'start_date must be an ISO date' }).min(1, 'start_date must be an ISO date').optional(),
    end_date: z.string({ message: 'end_date must be an ISO date' }).min(1, 'end_date must be an ISO date').optional(),
  })
  .refine((q) => q.window === undefined || (q.start_date === undefined && q.end_date === undefined), { message: 'window and start_date/end_date are mutually exclusive' });

export const statsJson = (s: analytics.Stats) => ({
  period: { label: s.period?.label ?? '', start: s.period?.start ?? '', end: s.period?.end ?? '' },
  latency: { p50: s.latency?.p50 ?? 0, p95: s.latency?.p95 ?? 0, p99: s.latency?.p99 ?? 0, avg_ms: s.latency?.avgMs ?? 0 },
  cost: {
    total: s.cost?.total ?? 0,
    by_model: (s.cost?.byModel ?? []).map((m) => ({ model: m.model, cost: m.cost })),
    by_infrastructure: (s.cost?.byInfrastructure ?? []).map((i) => ({ infrastructure: i.infrastructure, cost: i.cost })),
  },
  revenue: s.revenue,
  gross_margin: s.grossMargin,
  gross_margin_pct: s.grossMarginPct,
  security: {
    total_requests: s.security?.totalRequests ?? 0,
    pii_block_rate: s.security?.piiBlockRate ?? 0,
    injection_shadow_rate: s.security?.injectionShadowRate ?? 0,
    tool_fidelity_score: s.security?.toolFidelityScore ?? 1,
    loop_interventions: s.security?.loopInterventions ?? 0,
    secret_leakage_rate: s.security?.secretLeakageRate ?? 0,
  },
  agent: {
    mcp_latency: {
      avg_model_think_ms: s.agent?.mcpLatency?.avgModelThinkMs ?? 0,
      p95_model_think_ms: s.agent?.mcpLatency?.p95ModelThinkMs ?? 0,
      avg_tool_exec_ms: s.agent?.mcpLatency?.avgToolExecMs ?? 0,
      p95_tool_exec_ms: s.agent?.mcpLatency?.p95ToolExecMs ?? 0,
      tool_call_count: s.agent?.mcpLatency?.toolCallCount ?? 0,
      overhead_ratio: s.agent?.mcpLatency?.overheadRatio ?? 0,
    },
    chain_depth: {
      avg_tool_cycles: s.agent?.chainDepth?.avgToolCycles ?? 0,
      max_tool_cycles: s.agent?.chainDepth?.maxToolCycles ?? 0,
      deep_loop_count: s.agent?.chainDepth?.deepLoopCount ?? 0,
    },
    bias_drift: (s.agent?.biasDrift ?? []).map((d) => ({
      model: d.model,
      sample_count: d.sampleCount,
      output_length_drift_pct: d.outputLengthDriftPct,
      refusal_rate_drift_pct: d.refusalRateDriftPct,
      latency_drift_pct: d.latencyDriftPct,
      drifting: d.drifting,
      baseline: figuresJson(d.baseline),
      current: figuresJson(d.current),
    })),
    stall: {
      avg_probability: s.agent?.stall?.avgProbability ?? 0,
      alert_count: s.agent?.stall?.alertCount ?? 0,
      monitor_count: s.agent?.stall?.monitorCount ?? 0,
      alert_rate_pct: s.agent?.stall?.alertRatePct ?? 0,
    },
  },
});

function figuresJson(f: analytics.DriftFigures | undefined) {
  return { sample_count: f?.sampleCount ?? 0, avg_output_chars: f?.avgOutputChars ?? 0, refusal_rate_pct: f?.refusalRatePct ?? 0, avg_latency_ms: f?.avgLatencyMs ?? 0 };
}

/**
 * GET /api/v1/stats (API key or session). The project: an API key's own (another project_id is
 * 404); for a session the given project_id if the caller may see it (404 otherwise), else the
 * first project the caller can see. `window` and `start_date`/`end_date` are mutually exclusive (400).
 */
export function statsRoutes(clients: EdgeClients, access: RequestHandler[]): Router {
  const router = Router();
  router.get('/api/v1/stats', keyOrSession(access, requireSession(clients)), handle(async (req, res) => {
    const query = parseOr400(statsQuery, req.query);
    let projectId: number;
    if (req.key) {
      if (query.project_id !== undefined && query.project_id !== req.key.projectId) throw new DomainError('NOT_FOUND', 'Not found');
      projectId = req.key.projectId;
    } else if (query.project_id !== undefined) {
      projectId = (await clients.controlPlane.getProject({ actor: req.actor, projectId: query.project_id })).id;
    } else {
      const { projects } = await clients.controlPlane.listProjects({ actor: req.actor });
      const first = [...projects].sort((a, b) => a.id - b.id)[0];
      if (!first) throw new DomainError('NOT_FOUND', 'No project to report on');
      projectId = first.id;
    }
    const stats = await clients.analytics.getStats({ projectId, windowHours: query.window, startDate: query.start_date ?? '', endDate: query.end_date ?? '' });
    res.json(statsJson(stats));
  }));
  return router;
}
