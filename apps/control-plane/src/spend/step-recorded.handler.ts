import { typedBatchHandler, type BatchHandler } from '@gateway/bus';
import { events } from '@gateway/proto';
import type { RecordSpendUseCase } from './record-spend.usecase';

/**
 * gateway.v1.step.recorded → the projects' monthly spend, a batch of events per statement
 * (idempotent by each event's id). A message that does not decode is redelivered on its own.
 */
export function stepRecordedHandler(spend: RecordSpendUseCase): BatchHandler {
  return typedBatchHandler('control-plane', events.StepRecorded, async (batch) => {
    await spend.record(batch.map(({ event, message }) => ({ eventId: event.meta?.eventId || message.eventId, projectId: event.projectId, cost: event.cost, createdAt: event.createdAt })));
  });
}
