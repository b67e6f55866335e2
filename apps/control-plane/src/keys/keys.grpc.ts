import type { ServiceHandlers } from '@gateway/grpc';
import type { controlplane } from '@gateway/proto';
import { requireService, userOf } from '../grpc-callers';
import type { ApiKeysUseCase, ApiKeyView } from './api-keys.usecase';

type Handlers = ServiceHandlers<typeof controlplane.ControlPlaneServiceService>;
type KeyMethods = 'listKeys' | 'createKey' | 'updateKey' | 'deleteKey' | 'verifyApiKey' | 'recordKeyTrip' | 'touchKeys';

const toKey = (key: ApiKeyView): controlplane.ApiKey => ({
  ...key,
  hourlyLimit: key.hourlyLimit ?? undefined,
  expiresAt: key.expiresAt ?? undefined,
  lastUsed: key.lastUsed ?? undefined,
});

export function keyHandlers(useCases: { keys: ApiKeysUseCase; keyCacheTtlMs: number }): Pick<Handlers, KeyMethods> {
  const { keys } = useCases;
  return {
    listKeys: async (req, ctx) => ({ keys: (await keys.list(userOf(req.actor, ctx))).map(toKey) }),
    createKey: async (req, ctx) => {
      const created = await keys.create(userOf(req.actor, ctx), {
        name: req.name,
        projectId: req.projectId,
        hourlyLimit: req.hourlyLimit,
        expiresAt: req.expiresAt,
        loopGuardExempt: req.loopGuardExempt,
      });
      return { key: toKey(created.view), rawKey: created.rawKey };
    },
    updateKey: async (req, ctx) => toKey(await keys.update(userOf(req.actor, ctx), req.keyId, { status: req.status, hourlyLimit: req.clearHourlyLimit ? null : req.hourlyLimit })),
    deleteKey: async (req, ctx) => {
      await keys.revoke(userOf(req.actor, ctx), req.keyId);
      return {};
    },
    verifyApiKey: async (req, ctx) => {
      requireService(ctx);
      const { expiresInMs, ...principal } = await keys.verify(req.rawKey);
      return {
        ...principal,
        hourlyLimit: principal.hourlyLimit ?? undefined,
        monthlyBudgetUsd: principal.monthlyBudgetUsd ?? undefined,
        // A key that expires sooner than the cache TTL is cached only until it expires.
        cacheTtlMs: Math.floor(expiresInMs === null ? useCases.keyCacheTtlMs : Math.min(useCases.keyCacheTtlMs, expiresInMs)),
      };
    },
    recordKeyTrip: async (req, ctx) => {
      requireService(ctx);
      return toKey(await keys.recordTrip({ keyId: req.keyId, status: req.status, resetAtMs: req.resetAtMs, ip: req.ip, userAgent: req.userAgent }));
    },
    touchKeys: async (req, ctx) => {
      requireService(ctx);
      await keys.touch(req.lastUsed);
      return {};
    },
  };
}
