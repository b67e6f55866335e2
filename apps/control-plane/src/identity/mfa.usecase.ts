import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import type { Prisma } from '../generated/prisma/client';
import type { SessionActor } from '../actor';
import { recordAudit, type AuditEventName } from '../audit/audit.repository';
import type { SecretBox } from '../models/secret-box';
import type { AuthThrottle } from './auth-throttle';
import type { SessionsUseCase } from './sessions.usecase';
import { newTotpSecret, provisioningUri } from './totp';

/**
 * TOTP multi-factor for the signed-in user: `enable` creates a secret (sealed at rest) and its
 * provisioning URI; `verify` with a code from the app activates it (or, once active, is a plain
 * challenge); `disable` needs a current code. Wrong codes are audited (mfa_failed) and count
 * towards the account's throttle like wrong passwords.
 */
export class MfaUseCase {
  constructor(
    private readonly db: ControlPlaneDb,
    private readonly sessions: SessionsUseCase,
    private readonly throttle: AuthThrottle,
    private readonly secrets: SecretBox,
    private readonly issuer: string,
  ) {}

  async enable(actor: SessionActor): Promise<{ provisioningUri: string; secret: string }> {
    const user = await this.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
    if (user.mfaEnabled) throw new DomainError('CONFLICT', 'MFA is already enabled');
    const secret = newTotpSecret();
    const sealed = this.secrets.encrypt(secret);
    await this.db.user.update({ where: { id: user.id }, data: { mfaSecret: sealed.ciphertext, mfaSecretKeyId: sealed.keyId, mfaLastStep: null } });
    return { provisioningUri: provisioningUri(this.issuer, user.email, secret), secret };
  }

  async verify(actor: SessionActor, code: string): Promise<void> {
    const user = await this.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
    if (!user.mfaSecret) throw new DomainError('CONFLICT', 'MFA setup has not been started');
    await this.challenge(actor, code, 'verify');
    const activated = !user.mfaEnabled;
    await this.db.$transaction(async (tx) => {
      if (activated) {
        await tx.user.update({ where: { id: user.id }, data: { mfaEnabled: true } });
        await this.audit(tx, actor, 'mfa_enabled', {});
      }
      await this.audit(tx, actor, 'mfa_verified', { context: activated ? 'activation' : 'challenge' });
    });
  }

  async disable(actor: SessionActor, code: string): Promise<void> {
    const user = await this.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
    if (!user.mfaEnabled) throw new DomainError('CONFLICT', 'MFA is not enabled');
    await this.challenge(actor, code, 'disable');
    await this.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { mfaEnabled: false, mfaSecret: null, mfaSecretKeyId: null, mfaLastStep: null } });
      await this.audit(tx, actor, 'mfa_disabled', {});
    });
  }

  private async challenge(actor: SessionActor, code: string, context: string): Promise<void> {
    const account = `mfa:${actor.userId}`;
    await this.throttle.check(account, actor.ip);
    const step = await this.sessions.acceptTotp(actor.userId, code);
    if (step === null) {
      await this.throttle.fail(account, actor.ip);
      await this.db.$transaction((tx) => this.audit(tx, actor, 'mfa_failed', { context }));
      throw new DomainError('VALIDATION_FAILED', 'Invalid MFA code', { errors: ['Invalid MFA code'] });
    }
    await this.throttle.clear(account);
  }

  private audit(tx: Prisma.TransactionClient, actor: SessionActor, event: AuditEventName, metadata: Record<string, unknown>): Promise<void> {
    return recordAudit(tx, { organizationId: actor.organizationId, event, ip: actor.ip, userAgent: actor.userAgent, metadata: { user_id: actor.userId, ...metadata } });
  }
}
