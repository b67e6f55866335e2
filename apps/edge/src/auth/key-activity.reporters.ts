import type { Logger } from '@gateway/logging';
import type { EdgeClients } from '../clients';

export interface PerimeterEvent {
  /** invalid_key | revoked_key | expired_key | paused_key | blocked_ip */
  cause: string;
  /** The key id part only (never the secret); empty for a malformed credential. */
  keyId: string;
  ip: string;
  userAgent: string;
  path: string;
}

/**
 * Records `perimeter_block` audit events in control-plane without delaying the refusal. A flood
 * of refused requests from one address with one key and cause is recorded once per interval.
 */
export class PerimeterReporter {
  private readonly lastReported = new Map<string, number>();

  constructor(
    private readonly clients: Pick<EdgeClients, 'controlPlane'>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  report(event: PerimeterEvent): void {
    const key = `${event.cause}|${event.keyId}|${event.ip}`;
    const now = Date.now();
    const last = this.lastReported.get(key);
    if (last !== undefined && now - last < this.intervalMs) return;
    if (this.lastReported.size > 10_000) this.lastReported.clear();
    this.lastReported.set(key, now);
    this.clients.controlPlane.recordPerimeterBlock(event).catch((error: unknown) => {
      this.logger.warn({ err: error, cause: event.cause, keyId: event.keyId }, 'perimeter_block could not be recorded');
    });
  }
}

/**
 * `last_used` of API keys without a database write per request: the latest use of each key is
 * kept in memory and sent to control-plane in one TouchKeys call per interval.
 */
export class KeyUsageReporter {
  /** key id → last use (epoch ms); formatted only when flushed, not per request. */
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly clients: Pick<EdgeClients, 'controlPlane'>,
    private readonly logger: Logger,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  touch(keyId: string): void {
    this.pending.set(keyId, Date.now());
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.clients.controlPlane.touchKeys({ lastUsed: Object.fromEntries([...batch].map(([keyId, at]) => [keyId, new Date(at).toISOString()])) });
    } catch (error) {
      // Keep the newer of the two timestamps for the next attempt.
      for (const [keyId, at] of batch) if (!this.pending.has(keyId)) this.pending.set(keyId, at);
      this.logger.warn({ err: error, keys: batch.size }, 'key usage could not be reported; will retry');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
