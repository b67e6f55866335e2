import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import { recordAudit } from '../audit/audit.repository';
import { hashPassword, verifyPassword } from './password';
import type { Role } from '../actor';

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  organizationId: number;
  mfaEnabled: boolean;
  emailVerified: boolean;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Session tokens are `<session uuid>.<256-bit secret>`; only a hash of the whole token is
 * stored. A token that does not parse or whose hash is unknown is "Invalid token"; a known
 * one that expired or was revoked is "Token expired".
 */
export class SessionsUseCase {
  constructor(private readonly db: ControlPlaneDb, private readonly ttlHours: number) {}

  async bootstrap(email: string, password: string, organizationName: string): Promise<{ user: UserView; created: boolean }> {
    const normalized = email.trim().toLowerCase();
    const existing = await this.db.user.findUnique({ where: { email: normalized } });
    if (existing) return { user: await this.view(existing.id), created: false };
    const passwordHash = await hashPassword(password);
    const userId = randomUUID();
    await this.db.$transaction(async (tx) => {
      const organization = await tx.organization.create({ data: { name: organizationName } });
      await tx.user.create({ data: { id: userId, email: normalized, name: 'Owner', passwordHash, emailVerified: true } });
      await tx.membership.create({ data: { organizationId: organization.id, userId, role: 'owner' } });
    });
    return { user: await this.view(userId), created: true };
  }

  async login(email: string, password: string, client: ClientInfo): Promise<{ token: string; user: UserView; expiresAt: Date }> {
    const normalized = email.trim().toLowerCase();
    const user = await this.db.user.findUnique({ where: { email: normalized } });
    const valid = user ? await verifyPassword(user.passwordHash, password) : false;
    const membership = user ? await this.db.membership.findFirst({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } }) : null;
    if (!user || !valid || !membership) {
      await this.db.$transaction((tx) =>
        recordAudit(tx, { organizationId: membership ? Number(membership.organizationId) : null, event: 'login_failed', ip: client.ip, userAgent: client.userAgent, metadata: { email: normalized } }),
      );
      throw new DomainError('UNAUTHENTICATED', 'Invalid email or password');
    }
    const sessionId = randomUUID();
    const token = `${sessionId}.${randomBytes(32).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await this.db.$transaction(async (tx) => {
      await tx.session.create({ data: { id: sessionId, userId: user.id, tokenHash: sha256(token), expiresAt } });
      await recordAudit(tx, { organizationId: Number(membership.organizationId), event: 'login_success', ip: client.ip, userAgent: client.userAgent, metadata: { user_id: user.id } });
    });
    return { token, user: await this.view(user.id), expiresAt };
  }

  async resolve(token: string): Promise<{ user: UserView; sessionId: string; expiresAt: Date }> {
    const [sessionId, secret] = token.split('.');
    if (!sessionId || !secret || !/^[0-9a-f-]{36}$/.test(sessionId)) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    const session = await this.db.session.findUnique({ where: { id: sessionId } });
    if (!session) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    const expected = Buffer.from(session.tokenHash, 'hex');
    const actual = Buffer.from(sha256(token), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    if (session.revokedAt || session.expiresAt.getTime() <= Date.now()) throw new DomainError('TOKEN_EXPIRED', 'Token expired');
    return { user: await this.view(session.userId), sessionId, expiresAt: session.expiresAt };
  }

  async logout(token: string, client: ClientInfo): Promise<void> {
    const { user, sessionId } = await this.resolve(token);
    await this.db.$transaction(async (tx) => {
      await tx.session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
      await recordAudit(tx, { organizationId: user.organizationId, event: 'logout', ip: client.ip, userAgent: client.userAgent, metadata: { user_id: user.id } });
    });
  }

  private async view(userId: string): Promise<UserView> {
    const user = await this.db.user.findUniqueOrThrow({ where: { id: userId } });
    const membership = await this.db.membership.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: 'asc' } });
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: membership.role as Role,
      organizationId: Number(membership.organizationId),
      mfaEnabled: user.mfaEnabled,
      emailVerified: user.emailVerified,
    };
  }
}
