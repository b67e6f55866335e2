import type { controlplane } from '@gateway/proto';

/** Wire shapes of the public API (spec field names). */
export const projectJson = (p: controlplane.Project) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  status: p.status,
  settings: p.settings ?? {},
  total_monthly_spend: p.totalMonthlySpend,
  created_at: p.createdAt,
});

/** Never carries the api_key: only `has_api_key`. */
export const modelJson = (m: controlplane.ModelDefinition) => ({
  id: m.id,
  project_id: m.projectId,
  name: m.name,
  identifier: m.identifier,
  provider: m.provider,
  base_url: m.baseUrl,
  has_api_key: m.hasApiKey,
  is_public: m.isPublic,
  input_cost_per_1k: m.inputCostPer1k,
  output_cost_per_1k: m.outputCostPer1k,
  data_retention_days: m.dataRetentionDays,
  region_restriction: m.regionRestriction,
  currency: m.currency,
  additional_config: m.additionalConfig ?? {},
  fallback_identifier: m.fallbackIdentifier || null,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

export const keyJson = (k: controlplane.ApiKey) => ({
  id: k.id,
  name: k.name,
  masked: k.masked,
  status: k.status,
  hourly_limit: k.hourlyLimit ?? null,
  project: { id: k.projectId, name: k.projectName },
  expires_at: k.expiresAt ?? null,
  loop_intervention_count: k.loopInterventionCount,
  last_used: k.lastUsed ?? null,
  created_at: k.createdAt,
});

export const userJson = (u: controlplane.User) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  organization_id: u.organizationId,
  mfa_enabled: u.mfaEnabled,
  email_verified: u.emailVerified,
});

export const auditEventJson = (e: controlplane.AuditEvent) => ({
  id: e.id,
  event: e.event,
  ip: e.ip,
  user_agent: e.userAgent,
  metadata: e.metadata ?? {},
  occurred_at: e.occurredAt,
});

export const inviteJson = (i: controlplane.Invite) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invite_token: i.inviteToken,
  expires_at: i.expiresAt,
});
