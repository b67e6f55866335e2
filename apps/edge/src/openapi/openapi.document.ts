import { z } from 'zod';
import { API_OPERATIONS, type ApiOperation, type Credential } from './api-operations';

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  api_key: [{ apiKey: [] }],
  session: [{ session: [] }],
  session_or_api_key: [{ session: [] }, { apiKey: [] }],
  none: [],
};

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a client sends or receives. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function parameters(operation: ApiOperation): Record<string, unknown>[] {
  const path = [...operation.path.matchAll(/:([a-z_]+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (!operation.query) return path;
  const query = jsonSchema(operation.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return [
    ...path,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema })),
  ];
}

/** The OpenAPI 3.1 document of the public API, built from the routes' own schemas. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API_OPERATIONS) {
    const path = operation.path.replace(/:([a-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][operation.method] = {
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      security: SECURITY[operation.credential],
      parameters: parameters(operation),
      ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema ? { content: { [operation.path.endsWith('/stream') && status === '200' ? 'text/event-stream' : 'application/json']: { schema: jsonSchema(response.schema, 'output') } } } : {}),
          },
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Governed AI gateway',
      version,
      description: [
        'Every model call belongs to a trace; steps record cost, latency, grades and security flags.',
        'Lists: `GET /api/v1/traces` answers `{data, pagination: {page, per_page, total, total_pages}}`; other lists are JSON arrays. DELETE answers 204.',
        'Errors: `{error}`, `{errors: [...]}` for validation-heavy control-plane endpoints, plus `code` for gateway protection errors.',
      ].join('\n\n'),
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer ak_<hex>.<secret>`' },
        session: { type: 'apiKey', in: 'cookie', name: 'gw_session', description: 'Dashboard session (POST /api/v1/session)' },
      },
    },
    paths,
  };
}
