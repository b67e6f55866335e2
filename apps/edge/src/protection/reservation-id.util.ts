import { randomUUID } from 'node:crypto';
import { assertKeyId, assertProjectId } from './protection-input.util';

/**
 * A reservation id carries what settle/release need to find the counters (key, project, month
 * of the reservation), so the Redis script can declare all its keys up front and settle costs one
 * round trip. Opaque to callers. Format: `r1.<projectId>.<YYYY-MM>.<base64url(keyId)>.<uuid>`.
 */
export interface ReservationRef {
  keyId: string;
  projectId: number;
  /** UTC month (`YYYY-MM`) the reservation, and hence its settled cost, belongs to. */
  month: string;
  reservationId: string;
}

const VERSION = 'r1';
const PATTERN = /^r1\.(\d{1,16})\.(\d{4}-\d{2})\.([A-Za-z0-9_-]+)\.([0-9a-f-]{36})$/;

export function createReservationRef(keyId: string, projectId: number, month: string): ReservationRef {
  const encodedKey = Buffer.from(keyId, 'utf8').toString('base64url');
  const reservationId = `${VERSION}.${projectId}.${month}.${encodedKey}.${randomUUID()}`;
  return { keyId, projectId, month, reservationId };
}

/** Throws on a malformed id: that is a caller bug, not a reservation that expired. */
export function parseReservationId(reservationId: string): ReservationRef {
  const match = typeof reservationId === 'string' ? PATTERN.exec(reservationId) : null;
  if (!match) {
    throw new TypeError('Malformed reservation id');
  }
  const projectId = Number(match[1]);
  const keyId = Buffer.from(match[3], 'base64url').toString('utf8');
  assertProjectId(projectId);
  assertKeyId(keyId);
  return { keyId, projectId, month: match[2], reservationId };
}
