import { HttpClient } from './http';
import type {
  ApiKey,
  ApiKeyCreated,
  AuditEvent,
  Insight,
  Invite,
  ModelDefinition,
  ModelDefinitionInput,
  Project,
  ProjectSettings,
  ReplayJob,
  ReplayOverrides,
  Session,
  Stats,
  TraceDetail,
  TracePage,
  TraceStatus,
  User,
} from './types';

export interface StatsQuery {
  project_id: number;
  window?: number;
  start_date?: string;
  end_date?: string;
}

/** Every endpoint the console calls, with the session cookie (DESIGN.md "Credentials"). */
export function createApi(http: HttpClient = new HttpClient()) {
  const p = (id: number) => `/api/v1/projects/${encodeURIComponent(String(id))}`;
  return {
    http,
    // Session and people
    login: (body: { email: string; password: string; otp?: string }) => http.request<Session>('POST', '/api/v1/session', { body }),
    session: () => http.request<Session>('GET', '/api/v1/session'),
    logout: () => http.request<void>('DELETE', '/api/v1/session'),
    startMfa: () => http.request<{ provisioning_uri: string; secret: string }>('POST', '/api/v1/session/mfa'),
    verifyMfa: (code: string) => http.request<void>('POST', '/api/v1/session/mfa/verify', { body: { code } }),
    disableMfa: (code: string) => http.request<void>('DELETE', '/api/v1/session/mfa', { body: { code } }),
    invite: (body: { email: string; role: string }) => http.request<Invite>('POST', '/api/v1/members', { body }),
    // The edge answers {user} (the OpenAPI document says a bare user): both are read.
    acceptInvite: async (body: { token: string; password: string; name?: string }): Promise<User> => {
      const answer = await http.request<User | { user: User }>('POST', '/api/v1/members/accept', { body });
      return 'user' in answer ? answer.user : answer;
    },
    auditEvents: () => http.request<AuditEvent[]>('GET', '/api/v1/audit-events'),

    // Projects and registry
    projects: () => http.request<Project[]>('GET', '/api/v1/projects'),
    project: (id: number) => http.request<Project>('GET', p(id)),
    createProject: (project: { name: string; description: string }) => http.request<Project>('POST', '/api/v1/projects', { body: { project } }),
    updateProject: (id: number, project: { name?: string; description?: string; status?: string; settings?: ProjectSettings }) =>
      http.request<Project>('PATCH', p(id), { body: { project } }),
    deleteProject: (id: number) => http.request<void>('DELETE', p(id)),
    models: (projectId: number) => http.request<ModelDefinition[]>('GET', `${p(projectId)}/models`),
    createModel: (projectId: number, model: ModelDefinitionInput) => http.request<ModelDefinition>('POST', `${p(projectId)}/models`, { body: { model_definition: model } }),
    updateModel: (projectId: number, modelId: number, model: Partial<ModelDefinitionInput>) =>
      http.request<ModelDefinition>('PATCH', `${p(projectId)}/models/${modelId}`, { body: { model_definition: model } }),
    deleteModel: (projectId: number, modelId: number) => http.request<void>('DELETE', `${p(projectId)}/models/${modelId}`),

    // API keys
    keys: () => http.request<ApiKey[]>('GET', '/api/v1/keys'),
    createKey: (body: { name: string; project_id: number; hourly_limit?: number | null; expires_at?: string | null }) => http.request<ApiKeyCreated>('POST', '/api/v1/keys', { body }),
    updateKey: (id: string, body: { status?: string; hourly_limit?: number | null }) => http.request<ApiKey>('PATCH', `/api/v1/keys/${encodeURIComponent(id)}`, { body }),
    revokeKey: (id: string) => http.request<void>('DELETE', `/api/v1/keys/${encodeURIComponent(id)}`),

    // Traces, statistics, insights, replay (session reads name the project)
    traces: (query: { project_id: number; page?: number; per_page?: number; status?: TraceStatus }) => http.request<TracePage>('GET', '/api/v1/traces', { query: { ...query } }),
    trace: (projectId: number, id: string) => http.request<TraceDetail>('GET', `/api/v1/traces/${encodeURIComponent(id)}`, { query: { project_id: projectId } }),
    stats: (query: StatsQuery, signal?: AbortSignal) => http.request<Stats>('GET', '/api/v1/stats', { query: { ...query }, signal }),
    insights: (projectId: number) => http.request<Insight[]>('GET', `${p(projectId)}/insights`),
    refreshInsights: (projectId: number) => http.request<{ computed: number }>('POST', `${p(projectId)}/insights/refresh`),
    dismissInsight: (projectId: number, insightId: number) => http.request<Insight>('PATCH', `${p(projectId)}/insights/${insightId}/dismiss`),
    replay: (projectId: number, traceId: string, overrides: ReplayOverrides) => http.request<ReplayJob>('POST', '/api/v1/replay', { body: { project_id: projectId, trace_id: traceId, ...overrides } }),
    replayJob: (projectId: number, jobId: string) => http.request<ReplayJob>('GET', `/api/v1/replay/${encodeURIComponent(jobId)}`, { query: { project_id: projectId } }),
  };
}

export type Api = ReturnType<typeof createApi>;
