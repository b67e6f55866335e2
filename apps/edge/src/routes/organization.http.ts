import { Router } from 'express';
import { z } from 'zod';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { parseOr400 } from './validation';

export const blockedIpsBody = z.object({ ips: z.array(z.string({ message: 'ips must be a list of strings' }).max(64), { message: 'ips must be a list of strings' }).max(10_000) });

/**
 * The organization's IP block list (admin/owner): addresses and CIDRs, IPv4 or IPv6. API-key
 * requests from a blocked address are refused at edge and recorded as perimeter_block.
 *   GET /api/v1/organization/blocked-ips → {ips}
 *   PUT /api/v1/organization/blocked-ips {ips: [...]} → {ips} (replaces the list; 422 names bad entries)
 */
export function organizationRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);

  router.get('/api/v1/organization/blocked-ips', session, handle(async (req, res) => {
    res.json({ ips: (await clients.controlPlane.getBlockedIps({ actor: req.actor })).ips });
  }));

  router.put('/api/v1/organization/blocked-ips', session, handle(async (req, res) => {
    const { ips } = parseOr400(blockedIpsBody, req.body);
    res.json({ ips: (await clients.controlPlane.updateBlockedIps({ actor: req.actor, ips })).ips });
  }));
  return router;
}
