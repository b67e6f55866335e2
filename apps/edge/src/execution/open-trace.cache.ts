import type { EventBus, Subscription } from '@gateway/bus';
import { events, Subjects } from '@gateway/proto';

/**
 * Traces known to be open, by id, with their project: an execution on a trace this replica has
 * seen open (created here, or checked with the ledger) skips the ledger round trip of the trace
 * check. The check only fails early: the ledger's RecordStep re-checks ownership and the open
 * state under the trace row's lock, so a stale entry can never put a step into a sealed or foreign
 * trace. Entries leave on completion here, on `trace.completed` from any replica (broadcast),
 * after `ttlMs`, and oldest-first beyond `maxEntries`.
 */
export class OpenTraceCache {
  private readonly entries = new Map<string, { projectId: number; until: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  isOpen(projectId: number, traceId: string): boolean {
    const entry = this.entries.get(traceId);
    if (entry === undefined) return false;
    if (entry.until <= Date.now()) {
      this.entries.delete(traceId);
      return false;
    }
    return entry.projectId === projectId;
  }

  markOpen(projectId: number, traceId: string): void {
    this.entries.delete(traceId);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(traceId, { projectId, until: Date.now() + this.ttlMs });
  }

  forget(traceId: string): void {
    this.entries.delete(traceId);
  }

  /** Every replica drops a trace completed anywhere. */
  listen(bus: EventBus): Promise<Subscription> {
    return bus.broadcast(Subjects.traceCompleted, async (message) => this.forget(events.TraceCompleted.decode(message.data).traceId));
  }
}
