import { describeEventBusContract } from './event-bus.contract';
import { subjectMatches } from './event-bus';
import { InProcessEventBus } from './in-process-bus';

describeEventBusContract('in-process', async () => {
  const bus = new InProcessEventBus();
  return { bus, prefix: 'test', reconnect: async () => bus, teardown: () => bus.close() };
});

describe('subjectMatches', () => {
  it.each([
    ['a.>', 'a.b', true],
    ['a.>', 'a.b.c', true],
    ['a.>', 'a', false],
    ['a.*', 'a.b', true],
    ['a.*', 'a.b.c', false],
    ['a.b', 'a.b', true],
    ['a.b', 'a.c', false],
  ])('%s vs %s → %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});
