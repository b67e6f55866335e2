import type { Logger } from '@gateway/logging';
import type { Prisma } from '../generated/prisma/client';
import type { SecretBox } from '../models/secret-box';

export type NotificationKind = 'invite' | 'email_verification';

/**
 * Queues a message for the mailer. The payload carries a token (a secret), so it is sealed with
 * the SecretBox; the log line names the kind and row id only.
 */
export async function queueNotification(
  tx: Prisma.TransactionClient,
  secrets: SecretBox,
  logger: Logger,
  input: { kind: NotificationKind; recipient: string; payload: Record<string, unknown> },
): Promise<void> {
  const sealed = secrets.encrypt(JSON.stringify(input.payload));
  const row = await tx.notification.create({ data: { kind: input.kind, recipient: input.recipient, payloadCiphertext: sealed.ciphertext, payloadKeyId: sealed.keyId } });
  logger.info({ notificationId: String(row.id), kind: input.kind }, 'notification queued for delivery');
}
