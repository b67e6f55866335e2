/** JetStream stream and subjects (DESIGN.md: gateway.v1.<noun>.<verb>, protobuf payloads). */
export const EVENT_STREAM = 'GATEWAY';

export const Subjects = {
  traceCreated: 'gateway.v1.trace.created',
  stepRecorded: 'gateway.v1.step.recorded',
  traceCompleted: 'gateway.v1.trace.completed',
  auditRecorded: 'gateway.v1.audit.recorded',
  keyChanged: 'gateway.v1.key.changed',
  projectChanged: 'gateway.v1.project.changed',
  replayRequested: 'gateway.v1.replay.requested',
} as const;

export type Subject = (typeof Subjects)[keyof typeof Subjects];
