import { Router } from 'express';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { auditEventJson } from './serializers';

/** GET /api/v1/audit-events: the organization's last 50 events, newest first (admin/owner; 403 otherwise). */
export function auditRoutes(clients: EdgeClients): Router {
  const router = Router();
  router.get('/api/v1/audit-events', requireSession(clients), handle(async (req, res) => {
    const { events } = await clients.controlPlane.listAuditEvents({ actor: req.actor });
    res.json(events.map(auditEventJson));
  }));
  return router;
}
