/**
 * Aborts one upstream attempt after `timeoutMs` of silence and remembers that it did, so a
 * timeout can be told apart from the caller cancelling. Non-streaming attempts arm it once;
 * streams `touch()` it on every chunk, making it an idle timeout.
 */
export class AttemptTimer {
  private readonly controller = new AbortController();
  private handle: NodeJS.Timeout | undefined;
  private expired = false;
  private readonly onCallerAbort: () => void;

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.onCallerAbort = () => this.controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): boolean {
    return this.expired;
  }

  touch(): void {
    if (this.handle === undefined || this.expired) return;
    clearTimeout(this.handle);
    this.arm();
  }

  suspend(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }

  resume(): void {
    if (this.handle === undefined && !this.expired && !this.controller.signal.aborted) this.arm();
  }

  /** Stops the clock; the attempt keeps its connection. */
  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /** Stops the clock and tears the connection down (abandoned or finished stream). */
  abort(): void {
    this.clear();
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private arm(): void {
    this.handle = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, this.timeoutMs);
  }
}
