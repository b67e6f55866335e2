import { runShutdown } from './shutdown';

describe('runShutdown', () => {
  it('runs the steps in order, keeps going after a failing one, and reports timings', async () => {
    const order: string[] = [];
    const lines: { obj: object; msg: string }[] = [];
    const logger = { info: (obj: object, msg: string) => lines.push({ obj, msg }), warn: (obj: object, msg: string) => lines.push({ obj, msg }) };
    const report = await runShutdown(
      'svc',
      [
        { name: 'drain', run: async () => { order.push('drain'); await new Promise((r) => setTimeout(r, 20)); } },
        { name: 'bus', run: () => { order.push('bus'); throw new Error('bus refused to drain'); } },
        { name: 'database', run: async () => { order.push('database'); } },
      ],
      logger,
    );
    expect(order).toEqual(['drain', 'bus', 'database']);
    expect(report.failed).toEqual(['bus']);
    expect(Object.keys(report.steps)).toEqual(['drain', 'bus', 'database']);
    expect(report.steps.drain).toBeGreaterThanOrEqual(15);
    expect(report.totalMs).toBeGreaterThanOrEqual(report.steps.drain);
    expect(lines.map((line) => line.msg)).toEqual(['svc: shutdown step failed', 'svc stopped']);
  });
});
