import type { ServiceHandlers } from '@gateway/grpc';
import type { controlplane } from '@gateway/proto';
import { requireService, userOf } from '../grpc-callers';
import type { InvitesUseCase } from './invites.usecase';
import type { MfaUseCase } from './mfa.usecase';
import type { SessionsUseCase } from './sessions.usecase';
import type { UserView } from './users.repository';

type Handlers = ServiceHandlers<typeof controlplane.ControlPlaneServiceService>;
type IdentityMethods =
  | 'bootstrap' | 'createOrganization' | 'login' | 'getSession' | 'logout' | 'enableMfa' | 'verifyMfa' | 'disableMfa' | 'inviteMember' | 'acceptInvite' | 'verifyEmail';

export const toUser = (user: UserView): controlplane.User => ({ ...user });

export function identityHandlers(useCases: { sessions: SessionsUseCase; mfa: MfaUseCase; invites: InvitesUseCase }): Pick<Handlers, IdentityMethods> {
  const { sessions, mfa, invites } = useCases;
  return {
    bootstrap: async (req, ctx) => {
      requireService(ctx);
      const result = await sessions.bootstrap(req.email, req.password, req.organizationName || 'Default organization');
      return { user: toUser(result.user), created: result.created };
    },
    createOrganization: async (req, ctx) => {
      requireService(ctx);
      return { user: toUser(await sessions.createOrganization(req.name, req.ownerEmail, req.ownerPassword, req.ownerName)), created: true };
    },
    login: async (req, ctx) => {
      requireService(ctx);
      const result = await sessions.login({ email: req.email, password: req.password, otp: req.otp, ip: req.ip, userAgent: req.userAgent });
      if (result.mfaRequired) return { sessionToken: '', user: undefined, mfaRequired: true, expiresAt: '' };
      return { sessionToken: result.token, user: toUser(result.user), mfaRequired: false, expiresAt: result.expiresAt.toISOString() };
    },
    getSession: async (req, ctx) => {
      requireService(ctx);
      const { user, expiresAt } = await sessions.resolve(req.sessionToken);
      return {
        user: toUser(user),
        actor: { userId: user.id, organizationId: user.organizationId, role: user.role, keyId: '', ip: '', userAgent: '' },
        expiresAt: expiresAt.toISOString(),
      };
    },
    logout: async (req, ctx) => {
      requireService(ctx);
      await sessions.logout(req.sessionToken, { ip: req.actor?.ip ?? '', userAgent: req.actor?.userAgent ?? '' });
      return {};
    },
    enableMfa: async (req, ctx) => mfa.enable(userOf(req.actor, ctx)),
    verifyMfa: async (req, ctx) => {
      await mfa.verify(userOf(req.actor, ctx), req.code);
      return {};
    },
    disableMfa: async (req, ctx) => {
      await mfa.disable(userOf(req.actor, ctx), req.code);
      return {};
    },
    inviteMember: async (req, ctx) => invites.invite(userOf(req.actor, ctx), { email: req.email, role: req.role }),
    acceptInvite: async (req, ctx) => {
      requireService(ctx);
      return toUser(await invites.accept({ token: req.token, password: req.password, name: req.name }));
    },
    verifyEmail: async (req, ctx) => {
      requireService(ctx);
      await invites.verifyEmail(req.token, { ip: req.ip, userAgent: req.userAgent });
      return {};
    },
  };
}
