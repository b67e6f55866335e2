import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { events, Subjects } from '@gateway/proto';
import type { ApiKey as ApiKeyRow, Prisma } from '../generated/prisma/client';

/**
 * Queues gateway.v1.key.changed in the caller's transaction (edge drops its cached principal;
 * `reset`: an admin reset, edge also clears the key's trips and windows).
 */
export async function emitKeyChanged(tx: Prisma.TransactionClient, row: ApiKeyRow, options: { status?: string; reset?: boolean } = {}): Promise<void> {
  await addToOutbox(
    tx,
    encodeEvent(Subjects.keyChanged, events.KeyChanged, {
      keyId: row.id,
      projectId: Number(row.projectId),
      status: options.status ?? row.status,
      hourlyLimit: row.hourlyLimit ?? undefined,
      loopInterventionCount: row.loopInterventionCount,
      reset: options.reset ?? false,
    }),
  );
}
