import { randomUUID, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import { recordAudit } from '../audit/audit.repository';
import type { SecretBox } from '../models/secret-box';
import type { AuthThrottle } from './auth-throttle';
import { hashPassword, verifyPassword } from './password';
import { isValidEmail, newSecretToken, normalizeEmail, passwordErrors, sha256Hex } from './tokens';
import { matchTotp } from './totp';
import { loadUserView, type UserView } from './users.repository';

export type { UserView } from './users.repository';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export type LoginResult = { mfaRequired: true } | { mfaRequired: false; token: string; user: UserView; expiresAt: Date };

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Organizations' first owners, login (argon2id, throttled, TOTP when enabled) and sessions.
 *
 * Session tokens are `<session uuid>.<256-bit secret>`; only a SHA-256 of the whole token is
 * stored. A token that does not parse, is unknown or does not match its hash is `Invalid token`
 * (tampered); a genuine one that expired or was revoked (logout) is `Token expired`.
 */
export class SessionsUseCase {
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly db: ControlPlaneDb,
    private readonly ttlHours: number,
    private readonly throttle: AuthThrottle,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * The first organization and owner. Once any organization exists, bootstrap only answers the
   * existing owner (same email) and refuses anyone else: further organizations are created with
   * the service-only CreateOrganization.
   */
  async bootstrap(email: string, password: string, organizationName: string): Promise<{ user: UserView; created: boolean }> {
    const normalized = normalizeEmail(email);
    const existing = await this.db.user.findUnique({ where: { email: normalized } });
    if (existing) return { user: await loadUserView(this.db, existing.id), created: false };
    if ((await this.db.organization.count()) > 0) throw new DomainError('CONFLICT', 'Already bootstrapped: create further organizations with CreateOrganization');
    return { user: await this.createOrganization(organizationName, normalized, password, 'Owner'), created: true };
  }

  /** An organization with its first owner (service-only: ops and tests). */
  async createOrganization(name: string, email: string, password: string, ownerName: string): Promise<UserView> {
    const normalized = normalizeEmail(email);
    const errors: string[] = [];
    if (!name.trim()) errors.push("Name can't be blank");
    if (!isValidEmail(normalized)) errors.push('Email is invalid');
    errors.push(...passwordErrors(password));
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    if (await this.db.user.findUnique({ where: { email: normalized } })) throw new DomainError('VALIDATION_FAILED', 'Email has already been taken', { errors: ['Email has already been taken'] });
    const passwordHash = await hashPassword(password);
    const userId = randomUUID();
    await this.db.$transaction(async (tx) => {
      const organization = await tx.organization.create({ data: { name: name.trim() } });
      // The operator configured this address; there is no mailbox to prove.
      await tx.user.create({ data: { id: userId, email: normalized, name: ownerName.trim() || 'Owner', passwordHash, emailVerified: true } });
      await tx.membership.create({ data: { organizationId: organization.id, userId, role: 'owner' } });
    });
    return loadUserView(this.db, userId);
  }

  /**
   * Password, then (when enabled) the TOTP code. With MFA enabled and no code the answer is
   * `mfaRequired` and nothing is recorded; a wrong password or code counts as a failure for the
   * account and the IP (throttling) and is audited.
   */
  async login(input: { email: string; password: string; otp?: string } & ClientInfo): Promise<LoginResult> {
    const email = normalizeEmail(input.email);
    const account = `login:${email}`;
    const user = email ? await this.db.user.findUnique({ where: { email } }) : null;
    const membership = user ? await this.db.membership.findFirst({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } }) : null;
    const organizationId = membership ? Number(membership.organizationId) : null;
    const audit = (event: 'login_failed' | 'login_success' | 'mfa_failed' | 'mfa_verified', metadata: Record<string, unknown>) =>
      this.db.$transaction((tx) => recordAudit(tx, { organizationId, event, ip: input.ip, userAgent: input.userAgent, metadata }));

    try {
      await this.throttle.check(account, input.ip);
    } catch (error) {
      await audit('login_failed', { email, reason: 'throttled' });
      throw error;
    }
    // Unknown accounts still pay for one argon2 verification, so timing does not reveal them.
    const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyPassword(await this.dummy(), input.password).then(() => false);
    if (!user || !valid || !membership) {
      await this.throttle.fail(account, input.ip);
      await audit('login_failed', { email, reason: 'invalid_credentials' });
      throw new DomainError('UNAUTHENTICATED', 'Invalid email or password');
    }

    if (user.mfaEnabled) {
      if (!input.otp) return { mfaRequired: true };
      const step = await this.acceptTotp(user.id, input.otp);
      if (step === null) {
        await this.throttle.fail(account, input.ip);
        await audit('mfa_failed', { user_id: user.id, context: 'login' });
        await audit('login_failed', { email, reason: 'mfa_failed' });
        throw new DomainError('UNAUTHENTICATED', 'Invalid MFA code');
      }
      await audit('mfa_verified', { user_id: user.id, context: 'login' });
    }

    const sessionId = randomUUID();
    const token = `${sessionId}.${newSecretToken()}`;
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await this.db.$transaction(async (tx) => {
      await tx.session.create({ data: { id: sessionId, userId: user.id, tokenHash: sha256Hex(token), expiresAt } });
      await recordAudit(tx, { organizationId, event: 'login_success', ip: input.ip, userAgent: input.userAgent, metadata: { user_id: user.id, mfa: user.mfaEnabled } });
    });
    await this.throttle.clear(account);
    return { mfaRequired: false, token, user: await loadUserView(this.db, user.id), expiresAt };
  }

  /**
   * Checks a TOTP code against the user's sealed secret and, when it matches, records its step
   * as used (conditionally, so two concurrent uses of one code cannot both pass).
   */
  async acceptTotp(userId: string, code: string): Promise<number | null> {
    const user = await this.db.user.findUnique({ where: { id: userId } });
    if (!user?.mfaSecret || !user.mfaSecretKeyId) return null;
    const secret = this.secrets.decrypt(user.mfaSecretKeyId, user.mfaSecret);
    const last = user.mfaLastStep === null ? null : Number(user.mfaLastStep);
    const step = matchTotp(secret, code.trim(), Date.now(), last);
    if (step === null) return null;
    const { count } = await this.db.user.updateMany({
      where: { id: userId, OR: [{ mfaLastStep: null }, { mfaLastStep: { lt: BigInt(step) } }] },
      data: { mfaLastStep: BigInt(step) },
    });
    return count === 1 ? step : null;
  }

  async resolve(token: string): Promise<{ user: UserView; sessionId: string; expiresAt: Date }> {
    const dot = token.indexOf('.');
    const sessionId = dot > 0 ? token.slice(0, dot) : '';
    if (!SESSION_ID.test(sessionId) || token.length > 200) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    const session = await this.db.session.findUnique({ where: { id: sessionId } });
    if (!session) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    const expected = Buffer.from(session.tokenHash, 'hex');
    const actual = Buffer.from(sha256Hex(token), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new DomainError('TOKEN_INVALID', 'Invalid token');
    if (session.revokedAt || session.expiresAt.getTime() <= Date.now()) throw new DomainError('TOKEN_EXPIRED', 'Token expired');
    const user = await loadUserView(this.db, session.userId).catch(() => {
      // The user or their membership is gone: the session no longer stands for anyone.
      throw new DomainError('TOKEN_EXPIRED', 'Token expired');
    });
    return { user, sessionId, expiresAt: session.expiresAt };
  }

  async logout(token: string, client: ClientInfo): Promise<void> {
    const { user, sessionId } = await this.resolve(token);
    await this.db.$transaction(async (tx) => {
      await tx.session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
      await recordAudit(tx, { organizationId: user.organizationId, event: 'logout', ip: client.ip, userAgent: client.userAgent, metadata: { user_id: user.id } });
    });
  }

  /** Drops sessions that expired more than a day ago (maintenance job). */
  async pruneSessions(): Promise<number> {
    const { count } = await this.db.session.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 86_400_000) } } });
    return count;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(newSecretToken());
    return this.dummyHash;
  }
}
