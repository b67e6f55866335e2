import { CircuitBreaker } from './circuit-breaker.policy';

describe('CircuitBreaker', () => {
  let now = 0;
  const breaker = () => new CircuitBreaker({ failureThreshold: 3, openMs: 1000 }, () => now);
  beforeEach(() => {
    now = 0;
  });

  it('opens after the threshold of consecutive failures and refuses calls', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) {
      expect(b.tryAcquire()).toBe(true);
      b.recordFailure();
    }
    expect(b.currentState).toBe('open');
    expect(b.tryAcquire()).toBe(false);
  });

  it('counts only consecutive failures', () => {
    const b = breaker();
    b.recordFailure();
    b.recordFailure();
    b.recordSuccess();
    b.recordFailure();
    b.recordFailure();
    expect(b.currentState).toBe('closed');
  });

  it('lets exactly one probe through once openMs has passed, and closes on its success', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure();
    now = 999;
    expect(b.tryAcquire()).toBe(false);
    now = 1000;
    expect(b.currentState).toBe('half-open');
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    b.recordSuccess();
    expect(b.currentState).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
  });

  it('reopens for a full openMs when the probe fails', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure();
    now = 1500;
    expect(b.tryAcquire()).toBe(true);
    b.recordFailure();
    expect(b.currentState).toBe('open');
    now = 2400;
    expect(b.tryAcquire()).toBe(false);
    now = 2500;
    expect(b.tryAcquire()).toBe(true);
  });

  it('frees the probe slot when a probe ends without a verdict', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.recordFailure();
    now = 1000;
    expect(b.tryAcquire()).toBe(true);
    b.release();
    expect(b.tryAcquire()).toBe(true);
  });

  it('tells how long an open circuit still refuses calls', () => {
    const b = breaker();
    expect(b.retryInMs()).toBe(0);
    for (let i = 0; i < 3; i++) b.recordFailure();
    now = 400;
    expect(b.retryInMs()).toBe(600);
    now = 1200;
    expect(b.retryInMs()).toBe(0);
  });
});
