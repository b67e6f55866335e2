import type { Express } from 'express';
import { createLogger } from '@gateway/logging';
import { createServiceMetrics } from '@gateway/telemetry';
import { createEdgeApp, type EdgeDependencies } from '../app';
import { edgeEnvSchema } from '../env';
import { API_OPERATIONS } from './api-operations';
import { buildOpenApiDocument } from './openapi.document';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every `METHOD path` the express app serves, read from its router (no request is made). */
function servedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) for (const method of Object.keys(layer.route.methods)) found.push(`${method.toUpperCase()} ${layer.route.path}`);
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found.sort();
}

function edgeApp(): Express {
  const env = edgeEnvSchema.parse({ GATEWAY_INTERNAL_TOKEN: 'x'.repeat(24) });
  // Routes only build their handlers here; no dependency is called without a request.
  const deps = { clients: {}, keys: { middleware: () => () => undefined }, guard: {}, pipeline: {} } as unknown as EdgeDependencies;
  return createEdgeApp(env, deps, createLogger({ service: 'edge-test', level: 'silent' }), createServiceMetrics('edge-openapi-test', false));
}

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument('test') as { openapi: string; paths: Record<string, Record<string, { summary: string; responses: Record<string, unknown> }>> };

  it('describes exactly the routes edge serves', () => {
    const described = API_OPERATIONS.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort();
    expect(servedRoutes(edgeApp())).toEqual(described);
  });

  it('is OpenAPI 3.1 with a summary and responses for every operation', () => {
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(API_OPERATIONS.length);
    for (const operation of operations) {
      expect(operation.summary.length).toBeGreaterThan(0);
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    }
  });

  it('carries the request schemas the routes validate with and the open decisions', () => {
    const executions = document.paths['/api/v1/executions'].post as unknown as { requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } } };
    expect(Object.keys(executions.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['trace_id', 'input', 'tools', 'tool_results', 'parent_step_id']));
    const complete = document.paths['/api/v1/traces/{id}/complete'].patch as unknown as { description: string };
    expect(complete.description).toContain('How traces are graded');
    const list = document.paths['/api/v1/traces'].get as unknown as { parameters: { name: string }[] };
    expect(list.parameters.map((parameter) => parameter.name)).toEqual(['project_id', 'page', 'per_page', 'status']);
  });
});
