import { join } from 'node:path';
import pg from 'pg';
import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { common, controlplane, ledger } from '@gateway/proto';
import { ProductionStack } from '@gateway/testing';

const root = join(__dirname, '../../../..');

export type LedgerClient = ServiceClient<typeof ledger.LedgerServiceService>;
export type ControlPlaneClient = ServiceClient<typeof controlplane.ControlPlaneServiceService>;

/** Model prices (USD per 1k tokens) and labels of the test registry. */
export const MODELS = [
  { name: 'Mini', identifier: 'mini', input_cost_per_1k: 0.00015, output_cost_per_1k: 0.0006, additional_config: { infrastructure: 'cloud-a' } },
  { name: 'Large', identifier: 'large', input_cost_per_1k: 0.0025, output_cost_per_1k: 0.01, additional_config: { infrastructure: 'cloud-b' } },
  { name: 'Vault', identifier: 'vault', input_cost_per_1k: 0.0002, output_cost_per_1k: 0.0002, is_public: false, additional_config: { infrastructure: 'on-prem' } },
];

/**
 * control-plane + ledger as production processes (built bundles), called over real gRPC with
 * the internal credential and an API-key actor, the way edge calls the ledger.
 */
export class LedgerTestStack {
  readonly stack: ProductionStack;
  control!: ControlPlaneClient;
  ledger!: LedgerClient;
  owner!: common.Actor;
  private readonly owners: { email: string; password: string };

  constructor(name: string, ledgerEnv: Record<string, string> = {}) {
    this.owners = { email: `owner@${name.replace(/_/g, '-')}.test`, password: `${name}-password-123` };
    this.stack = new ProductionStack({
      root,
      apps: ['control-plane', 'ledger'],
      databasePrefix: `gw_it_${name}`,
      extraEnv: {
        'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: this.owners.email, GATEWAY_BOOTSTRAP_PASSWORD: this.owners.password },
        ledger: { LEDGER_DURABLE: `ledger-it-${name.replace(/_/g, '-')}`, OUTBOX_POLL_MS: '50', ...ledgerEnv },
      },
    });
  }

  async start(): Promise<void> {
    await this.stack.startAll();
    const internalToken = this.stack.internalToken;
    this.control = createServiceClient(controlplane.ControlPlaneServiceService, { address: this.stack.address('control-plane'), internalToken });
    this.ledger = createServiceClient(ledger.LedgerServiceService, { address: this.stack.address('ledger'), internalToken });
    const login = await this.control.login({ ...this.owners, ip: '127.0.0.1', userAgent: 'ledger-it' });
    const session = await this.control.getSession({ sessionToken: login.sessionToken });
    this.owner = session.actor!;
  }

  async stop(): Promise<void> {
    this.control?.close();
    this.ledger?.close();
    await this.stack.stopAll();
  }

  /** A fresh project with the test registry and routing tiers simple→mini, complex→large, secure→vault. */
  async project(name: string): Promise<{ projectId: number; actor: common.Actor }> {
    const project = await this.control.createProject({ actor: this.owner, name: `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, description: 'ledger it', settings: {} });
    for (const model of MODELS) {
      await this.control.createModel({ actor: this.owner, projectId: project.id, modelId: 0, fields: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', ...model } });
    }
    await this.control.updateProject({ actor: this.owner, projectId: project.id, settings: { routing_tiers: { simple: 'mini', complex: 'large', secure: 'vault' } } });
    return { projectId: project.id, actor: keyActor(this.owner.organizationId, project.id) };
  }

  async sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.stack.apps.get('ledger')!.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }
}

/** The actor edge sends for a request authenticated by an API key of `projectId`. */
export function keyActor(organizationId: number, projectId: number): common.Actor {
  return { userId: '', organizationId, role: 'api_key', keyProjectId: projectId, keyId: `ak_it${projectId}`, ip: '127.0.0.1', userAgent: 'ledger-it' };
}

/** A RecordStepRequest with defaults; tests set only what they are about. */
export function step(projectId: number, actor: common.Actor, traceId: string, fields: Partial<ledger.RecordStepRequest>): ledger.RecordStepRequest {
  return ledger.RecordStepRequest.fromPartial({ actor, projectId, traceId, type: 'run', latencyMs: 100, ...fields });
}
