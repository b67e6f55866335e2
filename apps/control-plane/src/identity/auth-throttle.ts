import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';

export interface ThrottleSettings {
  /** Failures of one account (email, or a user's MFA) allowed per window. */
  maxPerAccount: number;
  /** Failures from one IP address allowed per window (all accounts). */
  maxPerIp: number;
  windowSeconds: number;
}

/**
 * Throttles authentication per account and per IP from failures stored in control-plane's
 * database, so the limit holds across replicas. A locked caller gets 429 TOO_MANY_ATTEMPTS with
 * Retry-After = seconds until enough failures leave the window. A success clears the account's
 * failures (not the IP's). Check-then-insert is not atomic: concurrent attempts can overshoot
 * the limit by at most the number of attempts in flight, which argon2's cost keeps small.
 */
export class AuthThrottle {
  constructor(private readonly db: ControlPlaneDb, private readonly settings: ThrottleSettings) {}

  async check(account: string, ip: string): Promise<void> {
    const since = new Date(Date.now() - this.settings.windowSeconds * 1000);
    const waits = await Promise.all([
      this.lockedFor({ account, occurredAt: { gt: since } }, this.settings.maxPerAccount),
      ip ? this.lockedFor({ ip, occurredAt: { gt: since } }, this.settings.maxPerIp) : Promise.resolve(0),
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) throw new DomainError('TOO_MANY_ATTEMPTS', 'Too many attempts. Try again later.', { retryAfterSeconds: wait });
  }

  async fail(account: string, ip: string): Promise<void> {
    await this.db.authFailure.create({ data: { account, ip } });
  }

  async clear(account: string): Promise<void> {
    await this.db.authFailure.deleteMany({ where: { account } });
  }

  /** Removes failures that left the window (called by the maintenance job). */
  async prune(): Promise<number> {
    const { count } = await this.db.authFailure.deleteMany({ where: { occurredAt: { lt: new Date(Date.now() - this.settings.windowSeconds * 1000) } } });
    return count;
  }

  /** Seconds until the caller may try again (0 = not locked). */
  private async lockedFor(where: { account?: string; ip?: string; occurredAt: { gt: Date } }, max: number): Promise<number> {
    // The max-th most recent failure in the window: once it leaves the window, the count drops below max.
    const rows = await this.db.authFailure.findMany({ where, orderBy: { occurredAt: 'desc' }, skip: max - 1, take: 1, select: { occurredAt: true } });
    if (rows.length === 0) return 0;
    return Math.max(1, Math.ceil((rows[0].occurredAt.getTime() + this.settings.windowSeconds * 1000 - Date.now()) / 1000));
  }
}
