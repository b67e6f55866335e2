import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { controlplane, ledger } from '@gateway/proto';
import type { EdgeEnv } from './env';

export interface EdgeClients {
  controlPlane: ServiceClient<typeof controlplane.ControlPlaneServiceService>;
  ledger: ServiceClient<typeof ledger.LedgerServiceService>;
  close(): void;
}

export function createEdgeClients(env: EdgeEnv): EdgeClients {
  const common = { internalToken: env.GATEWAY_INTERNAL_TOKEN, deadlineMs: env.GRPC_DEADLINE_MS };
  const controlPlane = createServiceClient(controlplane.ControlPlaneServiceService, { address: env.CONTROL_PLANE_ADDRESS, ...common });
  const ledgerClient = createServiceClient(ledger.LedgerServiceService, { address: env.LEDGER_ADDRESS, ...common });
  return {
    controlPlane,
    ledger: ledgerClient,
    close: () => {
      controlPlane.close();
      ledgerClient.close();
    },
  };
}
