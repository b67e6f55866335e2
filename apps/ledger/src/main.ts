import './runtime-flags';
import { join } from 'node:path';
import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { ledgerEnvSchema } from './env';
import { startLedger } from './service';
import { controlPlaneKeyVerifier } from '@gateway/grpc';

runOrExit(async () => {
  const env = loadEnv(ledgerEnvSchema, process.env);
  const service = await startLedger(env, {
    migrationsDir: join(__dirname, 'prisma/migrations'),
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
  });
  onShutdown(() => service.stop());
});
