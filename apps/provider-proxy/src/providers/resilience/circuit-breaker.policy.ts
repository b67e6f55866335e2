export interface CircuitBreakerSettings {
  /** Consecutive outage failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one probe through, ms. */
  openMs: number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Per-endpoint breaker: closed → open after N consecutive failures → half-open after openMs,
 * where exactly one probe is let through; its success closes the circuit, its failure reopens it.
 */
export class CircuitBreaker {
  private state: CircuitState = 'closed';
  private consecutiveFailures = 0;
  private openedAt = 0;
  private probeInFlight = false;

  constructor(
    private readonly settings: CircuitBreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get currentState(): CircuitState {
    if (this.state === 'open' && this.now() - this.openedAt >= this.settings.openMs) return 'half-open';
    return this.state;
  }

  /** How long until an open circuit lets a probe through, ms; 0 when it would now. */
  retryInMs(): number {
    if (this.state !== 'open') return 0;
    return Math.max(0, this.settings.openMs - (this.now() - this.openedAt));
  }

  /** Asks to send one call. A true answer must be followed by exactly one record/release call. */
  tryAcquire(): boolean {
    if (this.state === 'closed') return true;
    if (this.state === 'open') {
      if (this.now() - this.openedAt < this.settings.openMs) return false;
      this.state = 'half-open';
      this.probeInFlight = false;
    }
    if (this.probeInFlight) return false;
    this.probeInFlight = true;
    return true;
  }

  recordSuccess(): void {
    this.state = 'closed';
    this.consecutiveFailures = 0;
    this.probeInFlight = false;
  }

  recordFailure(): void {
    this.probeInFlight = false;
    if (this.state === 'half-open') {
      this.open();
      return;
    }
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= Math.max(1, this.settings.failureThreshold)) this.open();
  }

  /** The call ended without telling anything about the endpoint (caller cancelled). */
  release(): void {
    this.probeInFlight = false;
  }

  private open(): void {
    this.state = 'open';
    this.openedAt = this.now();
    this.consecutiveFailures = 0;
  }
}

export class CircuitBreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly settings: CircuitBreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  for(endpointKey: string): CircuitBreaker {
    let breaker = this.breakers.get(endpointKey);
    if (!breaker) {
      breaker = new CircuitBreaker(this.settings, this.now);
      this.breakers.set(endpointKey, breaker);
    }
    return breaker;
  }
}
