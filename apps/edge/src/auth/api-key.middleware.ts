import { BlockList, isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { DomainError } from '@gateway/errors';
import type { VerifiedKeyCache } from '@gateway/grpc';
import type { controlplane } from '@gateway/proto';
import type { KeyUsageReporter, PerimeterReporter } from './key-activity.reporters';
import { clientInfo, wrap, type KeyPrincipal } from './authenticate';

const KEY_ID = /^ak_[0-9a-f]{8,64}$/;

/** The key id of a presented credential, when it has the right shape (never the secret). */
export function keyIdOf(raw: string): string {
  const id = raw.split('.', 1)[0];
  return KEY_ID.test(id) ? id : '';
}

const PAUSED_CAUSE: Record<string, string> = { revoked: 'revoked_key', expired: 'expired_key', tripped: 'paused_key', loop_detected: 'paused_key' };

const blockLists = new WeakMap<string[], BlockList>();

function blockListOf(entries: string[]): BlockList {
  let list = blockLists.get(entries);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (!isIP(address)) continue;
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
    blockLists.set(entries, list);
  }
  return list;
}

/** True when the caller's address is on the organization's block list (IPv4-mapped IPv6 included). */
export function isBlockedIp(blocked: string[], ip: string): boolean {
  if (blocked.length === 0 || !ip) return false;
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return isIP(address) !== 0 && blockListOf(blocked).check(address, type);
}

/**
 * API-key authentication at the perimeter: control-plane verifies, the shared cache keeps the
 * answer until its TTL or a key.changed / project.changed broadcast. Unknown, revoked, expired
 * and paused keys get 401 `Unauthorized`; a blocked IP gets 403. Each refusal is reported as a
 * `perimeter_block` audit event (rate-limited per cause, key and address).
 */
export class ApiKeyAuthenticator {
  constructor(
    private readonly cache: VerifiedKeyCache,
    private readonly perimeter: PerimeterReporter,
    private readonly usage: KeyUsageReporter,
  ) {}

  middleware(): RequestHandler {
    return wrap(async (req) => {
      req.key = await this.authenticate(req);
      req.actor = { userId: '', organizationId: req.key.organizationId, role: 'api_key', keyProjectId: req.key.projectId, keyId: req.key.keyId, ...clientInfo(req) };
    });
  }

  async authenticate(req: Request): Promise<KeyPrincipal> {
    const header = req.headers.authorization ?? '';
    const raw = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const caller = clientInfo(req);
    const refuse = (cause: string, keyId: string): never => {
      this.perimeter.report({ cause, keyId, ip: caller.ip, userAgent: caller.userAgent, path: req.path });
      throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    };
    if (!raw.startsWith('ak_') || raw.indexOf('.') < 0) return refuse('invalid_key', keyIdOf(raw));
    let answer: controlplane.KeyPrincipal;
    try {
      answer = await this.cache.lookup(raw, caller);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') return refuse('invalid_key', keyIdOf(raw));
      throw error;
    }
    if (answer.status !== 'active') return refuse(PAUSED_CAUSE[answer.status] ?? 'paused_key', answer.keyId);
    if (isBlockedIp(answer.blockedIps, caller.ip)) {
      this.perimeter.report({ cause: 'blocked_ip', keyId: answer.keyId, ip: caller.ip, userAgent: caller.userAgent, path: req.path });
      throw new DomainError('FORBIDDEN', 'Forbidden');
    }
    this.usage.touch(answer.keyId);
    return {
      keyId: answer.keyId,
      projectId: answer.projectId,
      organizationId: answer.organizationId,
      hourlyLimit: answer.hourlyLimit ?? null,
      loopGuardExempt: answer.loopGuardExempt,
      projectStatus: answer.projectStatus,
      monthlyBudgetUsd: answer.monthlyBudgetUsd ?? null,
      projectMonthlySpendUsd: answer.projectMonthlySpendUsd,
      resetAtMs: answer.resetAtMs,
    };
  }
}
