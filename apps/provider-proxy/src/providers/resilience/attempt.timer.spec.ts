import { AttemptTimer } from './attempt.timer';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('AttemptTimer', () => {
  it('tears the attached request down once the time is up, and says it timed out', async () => {
    const cancel = jest.fn();
    const timer = new AttemptTimer(20);
    timer.attach(cancel);
    await wait(5);
    expect(cancel).not.toHaveBeenCalled();
    await wait(40);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(timer.timedOut).toBe(true);
  });

  it('tears the request down when the caller cancels, which is not a timeout', () => {
    const caller = new AbortController();
    const cancel = jest.fn();
    const timer = new AttemptTimer(10_000, caller.signal);
    timer.attach(cancel);
    caller.abort();
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(timer.timedOut).toBe(false);
    timer.abort();
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('tears a request attached after the caller left down at once', () => {
    const caller = new AbortController();
    caller.abort();
    const cancel = jest.fn();
    new AttemptTimer(10_000, caller.signal).attach(cancel);
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('stops watching once cleared: neither the clock nor the caller tear the request down', async () => {
    const caller = new AbortController();
    const cancel = jest.fn();
    const timer = new AttemptTimer(20, caller.signal);
    timer.attach(cancel);
    timer.clear();
    caller.abort();
    await wait(40);
    expect(cancel).not.toHaveBeenCalled();
    expect(timer.timedOut).toBe(false);
  });

  it('is an idle clock when touched, and stands still while suspended', async () => {
    const cancel = jest.fn();
    const timer = new AttemptTimer(250);
    timer.attach(cancel);
    for (let i = 0; i < 4; i++) {
      await wait(100);
      timer.touch();
    }
    expect(cancel).not.toHaveBeenCalled(); // 400 ms after the start, never 250 ms idle
    timer.suspend();
    await wait(350);
    expect(cancel).not.toHaveBeenCalled();
    timer.resume();
    await wait(400);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(timer.timedOut).toBe(true);
    timer.touch(); // after expiry: nothing is re-armed
    await wait(300);
    expect(cancel).toHaveBeenCalledTimes(1);
  });
});
