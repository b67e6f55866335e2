import { credentials, loadPackageDefinition, type ServiceError } from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

/** grpc.health.v1 Check, as load balancers and `grpc-health-probe` call it. */
export async function checkGrpcHealth(address: string, service = '', timeoutMs = 2_000): Promise<string> {
  const definition = loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String })) as unknown as {
    grpc: { health: { v1: { Health: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => { check: (request: { service: string }, options: { deadline: Date }, callback: (error: ServiceError | null, response: { status: string }) => void) => void; close(): void } } } };
  };
  const client = new definition.grpc.health.v1.Health(address, credentials.createInsecure());
  try {
    return await new Promise<string>((resolve, reject) =>
      client.check({ service }, { deadline: new Date(Date.now() + timeoutMs) }, (error: ServiceError | null, response: { status: string }) =>
        error ? reject(error) : resolve(response.status),
      ),
    );
  } finally {
    client.close();
  }
}
