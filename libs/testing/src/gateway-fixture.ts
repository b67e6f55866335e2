import { randomUUID } from 'node:crypto';
import { TestHttpClient } from './http-client';

export interface ModelFixture {
  identifier: string;
  provider?: string;
  base_url: string;
  api_key?: string;
  is_public?: boolean;
  input_cost_per_1k?: number;
  output_cost_per_1k?: number;
  additional_config?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface ProjectFixture {
  projectId: number;
  rawKey: string;
  keyId: string;
  api: TestHttpClient;
}

/**
 * The dashboard flow most edge tests start from, over HTTP like a user: log in as the
 * bootstrap owner, create a project with models, routing tiers and other settings, then a key.
 */
export class GatewayFixture {
  readonly dashboard: TestHttpClient;

  constructor(
    private readonly edgeUrl: string,
    private readonly owner: { email: string; password: string },
  ) {
    this.dashboard = new TestHttpClient(edgeUrl);
  }

  async login(): Promise<void> {
    const login = await this.dashboard.post('/api/v1/session', this.owner);
    if (login.status !== 201) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  }

  async project(options: { models: ModelFixture[]; settings?: Record<string, unknown>; key?: Record<string, unknown> }): Promise<ProjectFixture> {
    const created = await this.dashboard.post('/api/v1/projects', { project: { name: `fixture-${randomUUID().slice(0, 8)}`, description: 'test fixture' } });
    if (created.status !== 201) throw new Error(`project: ${created.status} ${JSON.stringify(created.body)}`);
    const projectId: number = created.body.id;
    for (const model of options.models) {
      const response = await this.dashboard.post(`/api/v1/projects/${projectId}/models`, {
        model_definition: { name: model.identifier, provider: 'openai', api_key: 'sk-fixture-key', is_public: true, input_cost_per_1k: 0.001, output_cost_per_1k: 0.002, ...model },
      });
      if (response.status !== 201) throw new Error(`model ${model.identifier}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    if (options.settings) {
      const patched = await this.dashboard.patch(`/api/v1/projects/${projectId}`, { project: { settings: options.settings } });
      if (patched.status !== 200) throw new Error(`settings: ${patched.status} ${JSON.stringify(patched.body)}`);
    }
    const key = await this.dashboard.post('/api/v1/keys', { name: 'fixture key', project_id: projectId, ...(options.key ?? {}) });
    if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
    return { projectId, rawKey: key.body.raw_key, keyId: key.body.id, api: new TestHttpClient(this.edgeUrl).withBearer(key.body.raw_key) };
  }
}
