import { typedHandler, type MessageHandler } from '@gateway/bus';
import { events } from '@gateway/proto';
import type { RecordSpendUseCase } from './record-spend.usecase';

/** gateway.v1.step.recorded → the project's monthly spend (idempotent by the event's id). */
export function stepRecordedHandler(spend: RecordSpendUseCase): MessageHandler {
  return typedHandler('control-plane', events.StepRecorded, async (event, message) => {
    await spend.apply({ eventId: event.meta?.eventId || message.eventId, projectId: event.projectId, cost: event.cost, createdAt: event.createdAt });
  });
}
