/**
 * The endpoints whose requests carry content to a model or into a trace, and therefore are
 * screened before they leave the network. Everything else is forwarded untouched.
 */
export type ScreenedEndpoint = 'executions' | 'runs' | 'stream' | 'checks' | 'logs' | 'simulate' | 'traces';

export const SCREENED_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; endpoint: ScreenedEndpoint }> = [
  { method: 'POST', path: '/api/v1/executions', endpoint: 'executions' },
  { method: 'POST', path: '/api/v1/runs', endpoint: 'runs' },
  { method: 'GET', path: '/api/v1/executions/stream', endpoint: 'stream' },
  { method: 'POST', path: '/api/v1/checks', endpoint: 'checks' },
  { method: 'POST', path: '/api/v1/logs', endpoint: 'logs' },
  { method: 'POST', path: '/api/v1/simulate', endpoint: 'simulate' },
  { method: 'POST', path: '/api/v1/traces', endpoint: 'traces' },
];

const MAX_DEPTH = 64;

/**
 * Every string a JSON value would carry out: values and object keys, at any depth. The whole
 * payload is screened, not only `input`, so content cannot slip out in another field (tool
 * results, tool descriptions, metadata, log output).
 */
export function collectTexts(value: unknown, into: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH) throw new RangeError('payload nested too deeply');
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectTexts(item, into, depth + 1);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collectTexts(item, into, depth + 1);
    }
  }
  return into;
}

/** Routing intent of an execution: an MCP tool marked vpc_only may only reach a private model. */
export function wantsPrivateRoute(payload: unknown): boolean {
  const tools = (payload as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) && tools.some((tool) => typeof tool === 'object' && tool !== null && (tool as { type?: unknown }).type === 'mcp' && (tool as { vpc_only?: unknown }).vpc_only === true);
}
