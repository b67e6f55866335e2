import type { BusMessage } from '@gateway/bus';
import { typedHandler } from '@gateway/bus';
import { events, Subjects } from '@gateway/proto';
import type { IngestEventUseCase } from './ingest-event.usecase';

/** Routes each event analytics counts to the use case; other subjects are acknowledged and ignored (project.changed has its own consumer). */
export function ledgerEventsHandler(ingest: IngestEventUseCase): (message: BusMessage) => Promise<void> {
  const traceCreated = typedHandler('analytics', events.TraceCreated, async (event, m) => void (await ingest.traceCreated(m.eventId, event)));
  const stepRecorded = typedHandler('analytics', events.StepRecorded, async (event, m) => void (await ingest.stepRecorded(m.eventId, event, m.deliveryCount)));
  const traceCompleted = typedHandler('analytics', events.TraceCompleted, async (event, m) => void (await ingest.traceCompleted(m.eventId, event, m.deliveryCount)));
  const keyChanged = typedHandler('analytics', events.KeyChanged, async (event, m) => void (await ingest.keyChanged(m.eventId, event)));
  return async (message) => {
    switch (message.subject) {
      case Subjects.traceCreated: return traceCreated(message);
      case Subjects.stepRecorded: return stepRecorded(message);
      case Subjects.traceCompleted: return traceCompleted(message);
      case Subjects.keyChanged: return keyChanged(message);
      default: return;
    }
  };
}
