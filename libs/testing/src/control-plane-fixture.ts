import { randomUUID } from 'node:crypto';
import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { controlplane, type common } from '@gateway/proto';

/**
 * The owner's side of a test, over control-plane's gRPC API with the internal credential (as
 * edge calls it): log in as the bootstrap owner, then create projects, models, settings, keys.
 */
export class ControlPlaneFixture {
  readonly client: ServiceClient<typeof controlplane.ControlPlaneServiceService>;
  private actor: common.Actor | undefined;

  constructor(address: string, internalToken: string) {
    this.client = createServiceClient(controlplane.ControlPlaneServiceService, { address, internalToken, deadlineMs: 10_000 });
  }

  async login(email: string, password: string): Promise<void> {
    const login = await this.client.login({ email, password, otp: undefined, ip: '127.0.0.1', userAgent: 'integration-test' });
    const session = await this.client.getSession({ sessionToken: login.sessionToken });
    this.actor = { ...session.actor!, ip: '127.0.0.1', userAgent: 'integration-test' };
  }

  async createProject(prefix: string): Promise<number> {
    const project = await this.client.createProject({ actor: this.owner(), name: `${prefix}-${randomUUID().slice(0, 8)}`, description: 'integration test', settings: {} });
    return project.id;
  }

  /** `fields` as the REST API takes them (snake_case); defaults fill the rest. */
  async createModel(projectId: number, fields: Record<string, unknown>): Promise<controlplane.ModelDefinition> {
    return this.client.createModel({ actor: this.owner(), projectId, modelId: 0, fields: { name: String(fields.identifier), is_public: true, ...fields } });
  }

  async updateSettings(projectId: number, settings: Record<string, unknown>): Promise<void> {
    await this.client.updateProject({ actor: this.owner(), projectId, settings });
  }

  async createKey(projectId: number): Promise<string> {
    const created = await this.client.createKey({ actor: this.owner(), name: `key-${randomUUID().slice(0, 6)}`, projectId, loopGuardExempt: false });
    return created.rawKey;
  }

  close(): void {
    this.client.close();
  }

  private owner(): common.Actor {
    if (!this.actor) throw new Error('login first');
    return this.actor;
  }
}
