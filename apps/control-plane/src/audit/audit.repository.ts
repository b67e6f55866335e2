import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { events, Subjects } from '@gateway/proto';
import type { Prisma } from '../generated/prisma/client';

export type AuditEventName =
  | 'login_success' | 'login_failed' | 'logout' | 'mfa_verified' | 'mfa_failed' | 'mfa_enabled' | 'mfa_disabled'
  | 'email_verified' | 'member_invited' | 'perimeter_block';

export interface AuditInput {
  organizationId: number | null;
  event: AuditEventName;
  ip: string;
  userAgent: string;
  metadata: Record<string, unknown>;
}

/** Stores an audit event and its `audit.recorded` event in the caller's transaction. */
export async function recordAudit(tx: Prisma.TransactionClient, input: AuditInput): Promise<void> {
  await tx.auditEvent.create({
    data: {
      organizationId: input.organizationId === null ? null : BigInt(input.organizationId),
      event: input.event,
      ip: input.ip,
      userAgent: input.userAgent,
      metadata: input.metadata as Prisma.InputJsonValue,
    },
  });
  await addToOutbox(
    tx,
    encodeEvent(Subjects.auditRecorded, events.AuditRecorded, {
      organizationId: input.organizationId ?? 0,
      event: input.event,
      ip: input.ip,
      userAgent: input.userAgent,
      metadata: input.metadata,
    }),
  );
}
