import type { ServiceHandlers } from '@gateway/grpc';
import type { controlplane } from '@gateway/proto';
import { requireService, userOf } from '../grpc-callers';
import type { BlockedIpsUseCase } from '../organization/blocked-ips.usecase';
import type { AuditUseCase } from './audit.usecase';

type Handlers = ServiceHandlers<typeof controlplane.ControlPlaneServiceService>;
type AuditMethods = 'listAuditEvents' | 'recordPerimeterBlock' | 'updateBlockedIps' | 'getBlockedIps';

export function auditHandlers(useCases: { audit: AuditUseCase; blockedIps: BlockedIpsUseCase }): Pick<Handlers, AuditMethods> {
  const { audit, blockedIps } = useCases;
  return {
    listAuditEvents: async (req, ctx) => ({ events: await audit.list(userOf(req.actor, ctx)) }),
    recordPerimeterBlock: async (req, ctx) => {
      requireService(ctx);
      await audit.recordPerimeterBlock({ cause: req.cause, keyId: req.keyId, ip: req.ip, userAgent: req.userAgent, path: req.path });
      return {};
    },
    updateBlockedIps: async (req, ctx) => ({ ips: await blockedIps.update(userOf(req.actor, ctx), req.ips) }),
    getBlockedIps: async (req, ctx) => ({ ips: await blockedIps.get(userOf(req.actor, ctx)) }),
  };
}
