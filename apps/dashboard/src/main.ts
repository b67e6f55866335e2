import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { dashboardEnvSchema } from './env';
import { startDashboard } from './service';

runOrExit(async () => {
  const dashboard = await startDashboard(loadEnv(dashboardEnvSchema, process.env));
  onShutdown(() => dashboard.stop());
});
