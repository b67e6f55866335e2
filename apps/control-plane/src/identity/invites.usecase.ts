import { randomUUID } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import type { ControlPlaneDb } from '../database';
import type { Prisma } from '../generated/prisma/client';
import { requireRole, ROLES, type Role, type SessionActor } from '../actor';
import { recordAudit } from '../audit/audit.repository';
import type { SecretBox } from '../models/secret-box';
import { queueNotification } from './notifications.repository';
import { hashPassword } from './password';
import { isValidEmail, newSecretToken, normalizeEmail, passwordErrors, sha256Hex } from './tokens';
import { loadUserView, type UserView } from './users.repository';
import type { ClientInfo } from './sessions.usecase';

export interface InviteView {
  id: string;
  email: string;
  role: Role;
  inviteToken: string;
  expiresAt: string;
}

export interface InviteSettings {
  inviteTtlHours: number;
  emailVerificationTtlHours: number;
}

/**
 * Member invites and email verification.
 *
 * An admin or owner invites an address with a role (only an owner may invite an owner); the
 * answer carries the token once (it is also queued, sealed, for the mailer) and only its hash is
 * stored. Accepting creates the user with an argon2id password and the membership, and issues an
 * email verification token: the invite token was shown to the inviter, so accepting it does not
 * prove the invitee controls the mailbox. A user belongs to one organization, so an address that
 * already has an account cannot be invited.
 */
export class InvitesUseCase {
  constructor(
    private readonly db: ControlPlaneDb,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    private readonly settings: InviteSettings,
  ) {}

  async invite(actor: SessionActor, input: { email: string; role: string }): Promise<InviteView> {
    requireRole(actor, ['owner', 'admin']);
    const email = normalizeEmail(input.email ?? '');
    const errors: string[] = [];
    if (!isValidEmail(email)) errors.push('Email is invalid');
    if (!(ROLES as readonly string[]).includes(input.role)) errors.push(`Role must be one of ${ROLES.join(', ')}`);
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    const role = input.role as Role;
    if (role === 'owner') requireRole(actor, ['owner']);
    if (await this.db.user.findUnique({ where: { email } })) throw new DomainError('VALIDATION_FAILED', 'Email has already been taken', { errors: ['Email has already been taken'] });

    const id = randomUUID();
    const token = newSecretToken();
    const expiresAt = new Date(Date.now() + this.settings.inviteTtlHours * 3_600_000);
    await this.db.$transaction(async (tx) => {
      await tx.invite.create({ data: { id, organizationId: BigInt(actor.organizationId), email, role, tokenHash: sha256Hex(token), invitedBy: actor.userId, expiresAt } });
      await queueNotification(tx, this.secrets, this.logger, { kind: 'invite', recipient: email, payload: { invite_id: id, token, role, expires_at: expiresAt.toISOString() } });
      await recordAudit(tx, {
        organizationId: actor.organizationId,
        event: 'member_invited',
        ip: actor.ip,
        userAgent: actor.userAgent,
        metadata: { invite_id: id, email, role, invited_by: actor.userId },
      });
    });
    return { id, email, role, inviteToken: token, expiresAt: expiresAt.toISOString() };
  }

  async accept(input: { token: string; password: string; name: string }): Promise<UserView> {
    const invite = input.token ? await this.db.invite.findUnique({ where: { tokenHash: sha256Hex(input.token) } }) : null;
    if (!invite || invite.acceptedAt || invite.expiresAt.getTime() <= Date.now()) {
      throw new DomainError('VALIDATION_FAILED', 'Invite token is invalid or expired', { errors: ['Invite token is invalid or expired'] });
    }
    const errors = passwordErrors(input.password ?? '');
    if ((input.name ?? '').length > 200) errors.push('Name is too long (maximum is 200 characters)');
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    if (await this.db.user.findUnique({ where: { email: invite.email } })) throw new DomainError('VALIDATION_FAILED', 'Email has already been taken', { errors: ['Email has already been taken'] });

    const passwordHash = await hashPassword(input.password);
    const userId = randomUUID();
    await this.db.$transaction(async (tx) => {
      // Conditional: two concurrent accepts of one invite cannot both create a member.
      const { count } = await tx.invite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: new Date() } });
      if (count !== 1) throw new DomainError('VALIDATION_FAILED', 'Invite token is invalid or expired', { errors: ['Invite token is invalid or expired'] });
      await tx.user.create({ data: { id: userId, email: invite.email, name: (input.name ?? '').trim(), passwordHash, emailVerified: false } });
      await tx.membership.create({ data: { organizationId: invite.organizationId, userId, role: invite.role } });
      await this.issueVerification(tx, userId, invite.email);
    });
    return loadUserView(this.db, userId);
  }

  async verifyEmail(token: string, client: ClientInfo): Promise<void> {
    const row = token ? await this.db.emailVerification.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
    if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now()) {
      throw new DomainError('VALIDATION_FAILED', 'Verification token is invalid or expired', { errors: ['Verification token is invalid or expired'] });
    }
    const user = await loadUserView(this.db, row.userId);
    await this.db.$transaction(async (tx) => {
      const { count } = await tx.emailVerification.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
      if (count !== 1) throw new DomainError('VALIDATION_FAILED', 'Verification token is invalid or expired', { errors: ['Verification token is invalid or expired'] });
      await tx.user.update({ where: { id: row.userId }, data: { emailVerified: true } });
      await recordAudit(tx, { organizationId: user.organizationId, event: 'email_verified', ip: client.ip, userAgent: client.userAgent, metadata: { user_id: user.id, email: user.email } });
    });
  }

  private async issueVerification(tx: Prisma.TransactionClient, userId: string, email: string): Promise<void> {
    const token = newSecretToken();
    const expiresAt = new Date(Date.now() + this.settings.emailVerificationTtlHours * 3_600_000);
    await tx.emailVerification.create({ data: { id: randomUUID(), userId, tokenHash: sha256Hex(token), expiresAt } });
    await queueNotification(tx, this.secrets, this.logger, { kind: 'email_verification', recipient: email, payload: { token, expires_at: expiresAt.toISOString() } });
  }
}
