import { HttpTransport, type FetchLike } from './http/http.transport';
import { normalizeRetry, type RetryOptions } from './http/retry.policy';
import type {
  ApiKey,
  AuditEvent,
  CreatedApiKey,
  CreateKeyParams,
  Insight,
  ModelDefinition,
  ModelDefinitionInput,
  Project,
  ProjectUpdate,
  Session,
  UpdateKeyParams,
} from './types';
import { SDK_HEADER, SDK_HEADER_VALUE } from './version';

export interface DashboardClientOptions {
  baseUrl: string;
  retry?: Partial<RetryOptions>;
  timeoutMs?: number;
  fetch?: FetchLike;
}

const SESSION_COOKIE = 'gw_session';
const segment = (value: string | number) => encodeURIComponent(String(value));

/**
 * The session-credential endpoints (projects, model registry, API keys, insights, audit events)
 * for scripts and back-office tools in Node. It logs in like the dashboard and keeps the session
 * cookie itself; browsers send their own cookie and do not need it. Backend services use an API
 * key with GatewayClient instead (session credentials are not meant for them).
 */
export class DashboardClient {
  private readonly transport: HttpTransport;
  private cookie: string | undefined;

  constructor(options: DashboardClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    this.transport = new HttpTransport({
      baseUrl: options.baseUrl,
      headers: () => ({ [SDK_HEADER]: SDK_HEADER_VALUE, ...(this.cookie ? { cookie: this.cookie } : {}) }),
      retry: normalizeRetry(options.retry),
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch,
      onResponse: (response) => this.keepCookie(response),
    });
  }

  private keepCookie(response: Response): void {
    const headers = response.headers as Headers & { getSetCookie?: () => string[] };
    const cookies = headers.getSetCookie?.() ?? (headers.get('set-cookie') ? [headers.get('set-cookie')!] : []);
    for (const cookie of cookies) {
      const [pair] = cookie.split(';');
      const [name, ...rest] = pair.split('=');
      if (name.trim() !== SESSION_COOKIE) continue;
      const value = rest.join('=').trim();
      this.cookie = value ? `${SESSION_COOKIE}=${value}` : undefined;
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.transport.json<T>(method, path, { body })).body;
  }

  // ---- session --------------------------------------------------------------------------------

  async login(credentials: { email: string; password: string; otp?: string }): Promise<Session> {
    return this.call<Session>('POST', '/api/v1/session', credentials);
  }

  session(): Promise<Session> {
    return this.call<Session>('GET', '/api/v1/session');
  }

  async logout(): Promise<void> {
    await this.call<void>('DELETE', '/api/v1/session');
    this.cookie = undefined;
  }

  // ---- projects -------------------------------------------------------------------------------

  listProjects(): Promise<Project[]> {
    return this.call('GET', '/api/v1/projects');
  }

  createProject(project: { name: string; description?: string }): Promise<Project> {
    return this.call('POST', '/api/v1/projects', { project });
  }

  getProject(projectId: number): Promise<Project> {
    return this.call('GET', `/api/v1/projects/${segment(projectId)}`);
  }

  /** Settings merge: keys not sent are kept. */
  updateProject(projectId: number, project: ProjectUpdate): Promise<Project> {
    return this.call('PATCH', `/api/v1/projects/${segment(projectId)}`, { project });
  }

  async deleteProject(projectId: number): Promise<void> {
    await this.call<void>('DELETE', `/api/v1/projects/${segment(projectId)}`);
  }

  // ---- model registry -------------------------------------------------------------------------

  listModels(projectId: number): Promise<ModelDefinition[]> {
    return this.call('GET', `/api/v1/projects/${segment(projectId)}/models`);
  }

  createModel(projectId: number, model: ModelDefinitionInput & { identifier: string }): Promise<ModelDefinition> {
    return this.call('POST', `/api/v1/projects/${segment(projectId)}/models`, { model_definition: model });
  }

  getModel(projectId: number, modelId: number): Promise<ModelDefinition> {
    return this.call('GET', `/api/v1/projects/${segment(projectId)}/models/${segment(modelId)}`);
  }

  updateModel(projectId: number, modelId: number, model: ModelDefinitionInput): Promise<ModelDefinition> {
    return this.call('PATCH', `/api/v1/projects/${segment(projectId)}/models/${segment(modelId)}`, { model_definition: model });
  }

  async deleteModel(projectId: number, modelId: number): Promise<void> {
    await this.call<void>('DELETE', `/api/v1/projects/${segment(projectId)}/models/${segment(modelId)}`);
  }

  // ---- API keys -------------------------------------------------------------------------------

  listKeys(): Promise<ApiKey[]> {
    return this.call('GET', '/api/v1/keys');
  }

  /** The answer carries `raw_key`, shown exactly once. */
  createKey(params: CreateKeyParams): Promise<CreatedApiKey> {
    return this.call('POST', '/api/v1/keys', params);
  }

  /** Reset a tripped or loop-detected key (`status: "active"`) or change its hourly cap. */
  updateKey(keyId: string, params: UpdateKeyParams): Promise<ApiKey> {
    return this.call('PATCH', `/api/v1/keys/${segment(keyId)}`, params);
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.call<void>('DELETE', `/api/v1/keys/${segment(keyId)}`);
  }

  // ---- insights and audit ---------------------------------------------------------------------

  listInsights(projectId: number): Promise<Insight[]> {
    return this.call('GET', `/api/v1/projects/${segment(projectId)}/insights`);
  }

  refreshInsights(projectId: number): Promise<{ computed: number }> {
    return this.call('POST', `/api/v1/projects/${segment(projectId)}/insights/refresh`);
  }

  dismissInsight(projectId: number, insightId: number): Promise<Insight> {
    return this.call('PATCH', `/api/v1/projects/${segment(projectId)}/insights/${segment(insightId)}/dismiss`);
  }

  /** The last 50 control-plane events of the organization (admin or owner). */
  auditEvents(): Promise<AuditEvent[]> {
    return this.call('GET', '/api/v1/audit-events');
  }
}
