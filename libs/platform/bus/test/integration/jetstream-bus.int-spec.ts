import { connect } from 'nats';
import { randomBytes } from 'node:crypto';
import { createLogger } from '@gateway/logging';
import { describeEventBusContract } from '../../src/event-bus.contract';
import { JetStreamEventBus } from '../../src/jetstream-bus';

const servers = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const logger = createLogger({ service: 'bus-test', level: 'silent' });

describeEventBusContract('nats-jetstream', async () => {
  const id = randomBytes(4).toString('hex');
  const stream = `TEST_${id}`;
  const prefix = `test.${id}`;
  const open = () => JetStreamEventBus.connect({ servers, stream, subjects: [`${prefix}.>`], logger });
  const bus = await open();
  const extra: JetStreamEventBus[] = [];
  return {
    bus,
    prefix,
    reconnect: async () => {
      const other = await open();
      extra.push(other);
      return other;
    },
    teardown: async () => {
      await bus.close();
      const nc = await connect({ servers });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    },
  };
});
