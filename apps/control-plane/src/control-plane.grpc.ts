import type { ServiceHandlers } from '@gateway/grpc';
import { controlplane } from '@gateway/proto';
import type { AuditUseCase } from './audit/audit.usecase';
import { auditHandlers } from './audit/audit.grpc';
import { identityHandlers } from './identity/identity.grpc';
import type { InvitesUseCase } from './identity/invites.usecase';
import type { MfaUseCase } from './identity/mfa.usecase';
import type { SessionsUseCase } from './identity/sessions.usecase';
import type { ApiKeysUseCase } from './keys/api-keys.usecase';
import { keyHandlers } from './keys/keys.grpc';
import type { ModelsUseCase } from './models/models.usecase';
import type { BlockedIpsUseCase } from './organization/blocked-ips.usecase';
import type { ProjectsUseCase } from './projects/projects.usecase';
import { projectHandlers } from './projects/projects.grpc';

export interface ControlPlaneUseCases {
  sessions: SessionsUseCase;
  mfa: MfaUseCase;
  invites: InvitesUseCase;
  projects: ProjectsUseCase;
  models: ModelsUseCase;
  keys: ApiKeysUseCase;
  audit: AuditUseCase;
  blockedIps: BlockedIpsUseCase;
  keyCacheTtlMs: number;
}

type Handlers = ServiceHandlers<typeof controlplane.ControlPlaneServiceService>;

/**
 * Which credential each RPC accepts.
 * - API key (internal teams): only reads of the key's own project — ListProjects (answers that
 *   one project), GetProject, GetProjectPolicy, ListModels, GetModel. An actor in the message is
 *   ignored; the key is the actor. Every other RPC refuses an API key with UNAUTHENTICATED.
 * - Service credential with a session actor (edge acting for a dashboard user): projects, models,
 *   keys, MFA, invites, audit list, blocked IPs; roles are checked per use case.
 * - Service credential alone: Login, GetSession, Logout, AcceptInvite, VerifyEmail, Bootstrap,
 *   CreateOrganization, ResolveModelCredentials, VerifyApiKey, RecordKeyTrip, TouchKeys,
 *   RecordPerimeterBlock, GetProjectPolicy (any project: router, guardrail, agents).
 */
export const API_KEY_METHODS: ReadonlySet<keyof Handlers> = new Set<keyof Handlers>(['listProjects', 'getProject', 'getProjectPolicy', 'listModels', 'getModel']);

export const SERVICE_ONLY_METHODS: ReadonlySet<string> = new Set(
  Object.entries(controlplane.ControlPlaneServiceService)
    .filter(([name]) => !API_KEY_METHODS.has(name as keyof Handlers))
    .map(([, method]) => method.path),
);

/** Thin adapters: proto in, one use case, proto out. Every RPC of the contract is implemented. */
export function controlPlaneHandlers(useCases: ControlPlaneUseCases): Handlers {
  return {
    ...identityHandlers(useCases),
    ...projectHandlers(useCases),
    ...keyHandlers(useCases),
    ...auditHandlers(useCases),
  };
}
