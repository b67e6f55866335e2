/**
 * Tears one upstream attempt down after `timeoutMs` of silence, or as soon as the caller
 * cancels, and remembers a timeout so it can be told apart from the caller cancelling.
 * Non-streaming attempts arm it once; streams `touch()` it on every chunk, making it an idle
 * timeout. What it tears down is the request `attach`ed to it (no AbortController per attempt).
 */
export class AttemptTimer {
  private handle: NodeJS.Timeout | undefined;
  private expired = false;
  private aborted = false;
  private cancel: (() => void) | undefined;
  private readonly onCallerAbort = () => this.abort();
  private readonly onExpiry = () => {
    this.handle = undefined;
    this.expired = true;
    this.abort();
  };

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    if (callerSignal?.aborted) {
      this.aborted = true;
      return;
    }
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.handle = setTimeout(this.onExpiry, timeoutMs);
  }

  get timedOut(): boolean {
    return this.expired;
  }

  /** The request to tear down; torn down at once when the attempt is already over. */
  attach(cancel: () => void): void {
    this.cancel = cancel;
    if (this.aborted) cancel();
  }

  touch(): void {
    // refresh() re-arms the same timer object: cheaper than clearing and creating one per chunk.
    this.handle?.refresh();
  }

  suspend(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }

  resume(): void {
    if (this.handle === undefined && !this.aborted) this.handle = setTimeout(this.onExpiry, this.timeoutMs);
  }

  /** Stops the clock; the attempt keeps its connection. */
  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /** Stops the clock and tears the request down (timeout, caller gone, abandoned or finished stream). */
  abort(): void {
    this.clear();
    if (this.aborted) return;
    this.aborted = true;
    this.cancel?.();
  }
}
