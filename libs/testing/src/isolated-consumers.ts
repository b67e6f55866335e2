import { AckPolicy, connect, DeliverPolicy, nanos } from 'nats';
import { GATEWAY_SUBJECTS, JetStreamEventBus } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { EVENT_STREAM } from '@gateway/proto';
import type { AppName } from './production-stack';

const silent = createLogger({ service: 'test-stack', level: 'silent' });

/**
 * The durable consumers each app creates (env setting → the consumers derived from it), so a test
 * stack can give them names of its own that start at NEW events. Without that, a durable created
 * by a test would first replay the shared stream's whole history (every earlier test's events,
 * with colliding project ids) before it sees its own stack's traffic.
 */
const DURABLES: Partial<Record<AppName, { setting: string; consumers: (name: string) => [string, string][] }>> = {
  'control-plane': { setting: 'CONTROL_PLANE_SPEND_DURABLE', consumers: (name) => [[name, 'gateway.v1.step.recorded']] },
  ledger: { setting: 'LEDGER_DURABLE', consumers: (name) => [[`${name}-project-deleted`, 'gateway.v1.project.changed']] },
  analytics: { setting: 'ANALYTICS_DURABLE', consumers: (name) => [[name, GATEWAY_SUBJECTS], [`${name}-project-deleted`, 'gateway.v1.project.changed']] },
  insights: { setting: 'INSIGHTS_DURABLE', consumers: (name) => [[name, GATEWAY_SUBJECTS], [`${name}-project-deleted`, 'gateway.v1.project.changed']] },
  'replay-worker': { setting: 'REPLAY_WORKER_DURABLE', consumers: (name) => [[name, 'gateway.v1.replay.requested']] },
};

/** Test consumers disappear this long after their stack stopped pulling (no clean-up needed). */
const INACTIVE_THRESHOLD_MS = 10 * 60_000;

/**
 * Names every durable of the stack's apps `<setting default>-<suffix>` (unless the test named it
 * in extraEnv) and creates them up front, delivering only events published from now on.
 */
export async function isolateConsumers(natsUrl: string, suffix: string, apps: Iterable<{ name: AppName; env: Record<string, string> }>): Promise<void> {
  const nc = await connect({ servers: natsUrl, name: 'test-stack' });
  try {
    const jsm = await nc.jetstreamManager();
    // The stream as the services create it (consumers need it before the first service starts).
    await (await JetStreamEventBus.connectGateway({ servers: natsUrl, logger: silent, name: 'test-stack' })).close();
    for (const app of apps) {
      const durable = DURABLES[app.name];
      if (!durable) continue;
      app.env[durable.setting] ??= `it-${app.name}-${suffix}`;
      for (const [name, subject] of durable.consumers(app.env[durable.setting])) {
        // A durable the test named itself and that already exists is left as it is.
        const exists = await jsm.consumers.info(EVENT_STREAM, name).then(() => true, () => false);
        if (exists) continue;
        await jsm.consumers.add(EVENT_STREAM, {
          durable_name: name,
          filter_subject: subject,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.New,
          inactive_threshold: nanos(INACTIVE_THRESHOLD_MS),
        });
      }
    }
  } finally {
    await nc.close();
  }
}
