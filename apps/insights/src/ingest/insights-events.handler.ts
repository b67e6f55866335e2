import { typedHandler, type BusMessage } from '@gateway/bus';
import { events, Subjects } from '@gateway/proto';
import type { InsightsIngestUseCase } from './insights-ingest.usecase';

/** step.recorded and trace.completed feed insights; other subjects are acknowledged and ignored (project.changed has its own consumer). */
export function insightsEventsHandler(ingest: InsightsIngestUseCase): (message: BusMessage) => Promise<void> {
  const stepRecorded = typedHandler('insights', events.StepRecorded, (event, m) => ingest.stepRecorded(m.eventId, event));
  const traceCompleted = typedHandler('insights', events.TraceCompleted, (event, m) => ingest.traceCompleted(m.eventId, event));
  return async (message) => {
    switch (message.subject) {
      case Subjects.stepRecorded: return stepRecorded(message);
      case Subjects.traceCompleted: return traceCompleted(message);
      default: return;
    }
  };
}
