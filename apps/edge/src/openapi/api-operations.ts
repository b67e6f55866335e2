import { z } from 'zod';
import { GRADING_RULES } from '@gateway/proto';
import { executionBody, checkBody, logBody, runBody, simulateBody, streamQuery } from '../routes/executions.http';
import { createBody as keyCreateBody, patchBody as keyPatchBody } from '../routes/keys.http';
import { acceptBody, inviteBody } from '../routes/members.http';
import { blockedIpsBody } from '../routes/organization.http';
import { projectBody } from '../routes/projects.http';
import { codeBody, loginBody, tokenBody } from '../routes/session.http';
import { replayBody } from '../routes/replay.http';
import { statsQuery } from '../routes/stats.http';
import { createBody as traceCreateBody, listQuery as traceListQuery, projectQuery } from '../routes/traces.http';
import * as R from './response.schemas';

export type Credential = 'api_key' | 'session' | 'session_or_api_key' | 'none';

export interface ApiOperation {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Express path, e.g. `/api/v1/traces/:id`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  credential: Credential;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Status → description and body schema (none for 204). */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

const ok = (schema: z.ZodType, description = 'OK') => ({ 200: { description, schema } });
const created = (schema: z.ZodType) => ({ 201: { description: 'Created', schema } });
const noContent = { 204: { description: 'No content' } };
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, { description: ERROR_TEXT[status], schema: status === 422 ? z.union([R.errorBody, R.errorsBody]) : R.errorBody }]));

const ERROR_TEXT: Record<number, string> = {
  400: 'A required parameter is missing or the body is malformed',
  401: '`Unauthorized` (API key missing, invalid, expired, revoked or paused), `Token expired` or `Invalid token` (session)',
  402: '`Monthly budget exceeded.` code `BUDGET_EXCEEDED`',
  403: 'The role does not allow this (admin or owner needed), or the caller IP is blocked',
  404: 'Not found or belongs to another account (indistinguishable)',
  413: 'Input larger than the guardrail accepts',
  422: 'Well-formed but failed validation, or refused by the current state (e.g. completing a sealed trace)',
  429: '`Rate limit exceeded` (Retry-After, X-RateLimit-*), `Kill switch engaged: hourly limit of $X exceeded.` code `CIRCUIT_OPEN`, or `Recursive loop detected. Account throttled.` code `LOOP_DETECTED`',
  502: 'The model provider failed after retries and fallbacks',
  503: 'A dependency is unavailable; metered endpoints fail closed (e.g. rate-limit store down). Retry-After is set',
};

const METERED = errors(400, 401, 402, 422, 429, 502, 503);
const KEYED = errors(400, 401, 429, 503);

/**
 * Every public endpoint. The request schemas are the ones the routes validate with; a unit test
 * fails when a route exists without an operation here or the other way round.
 */
export const API_OPERATIONS: ApiOperation[] = [
  // Session and identity
  { method: 'post', path: '/api/v1/session', tag: 'Session', summary: 'Log in', description: 'Sets an HttpOnly session cookie. With MFA enabled and no `otp`: 401 `{error: "MFA code required", mfa_required: true}`. Throttled per account and IP: 429 code `TOO_MANY_ATTEMPTS`.', credential: 'none', body: loginBody, responses: { ...created(R.session), ...errors(400, 401, 429) } },
  { method: 'get', path: '/api/v1/session', tag: 'Session', summary: 'The current user', credential: 'session', responses: { ...ok(R.session), ...errors(401) } },
  { method: 'delete', path: '/api/v1/session', tag: 'Session', summary: 'Log out (revokes the session)', credential: 'session', responses: { ...noContent, ...errors(401) } },
  { method: 'post', path: '/api/v1/session/mfa', tag: 'Session', summary: 'Start TOTP set-up', description: 'Answers a provisioning URI and the base32 secret; MFA is active after a verified code.', credential: 'session', responses: { ...ok(z.object({ provisioning_uri: z.string(), secret: z.string() })), ...errors(401) } },
  { method: 'post', path: '/api/v1/session/mfa/verify', tag: 'Session', summary: 'Verify a TOTP code (activates MFA)', credential: 'session', body: codeBody, responses: { ...noContent, ...errors(400, 401, 422) } },
  { method: 'delete', path: '/api/v1/session/mfa', tag: 'Session', summary: 'Disable MFA with a current code', credential: 'session', body: codeBody, responses: { ...noContent, ...errors(400, 401, 422) } },
  { method: 'post', path: '/api/v1/session/verify-email', tag: 'Session', summary: 'Confirm an email address with its token', credential: 'none', body: tokenBody, responses: { ...noContent, ...errors(400, 422) } },
  { method: 'post', path: '/api/v1/members', tag: 'Members', summary: 'Invite a member (admin or owner)', credential: 'session', body: inviteBody, responses: { ...created(R.invite), ...errors(400, 401, 403, 422) } },
  { method: 'post', path: '/api/v1/members/accept', tag: 'Members', summary: 'Accept an invite and set a password', credential: 'none', body: acceptBody, responses: { ...created(z.object({ user: R.user })), ...errors(400, 422) } },
  { method: 'get', path: '/api/v1/audit-events', tag: 'Audit', summary: "The organization's last 50 audit events, newest first (admin or owner)", credential: 'session', responses: { ...ok(z.array(R.auditEvent)), ...errors(401, 403) } },
  { method: 'get', path: '/api/v1/organization/blocked-ips', tag: 'Audit', summary: 'The IP block list (admin or owner)', credential: 'session', responses: { ...ok(R.blockedIps), ...errors(401, 403) } },
  { method: 'put', path: '/api/v1/organization/blocked-ips', tag: 'Audit', summary: 'Replace the IP block list (addresses or CIDRs)', description: 'Requests with an API key from a blocked address are refused (403) and recorded as `perimeter_block`.', credential: 'session', body: blockedIpsBody, responses: { ...ok(R.blockedIps), ...errors(400, 401, 403, 422) } },

  // Projects and registry
  { method: 'get', path: '/api/v1/projects', tag: 'Projects', summary: "The organization's projects", credential: 'session', responses: { ...ok(z.array(R.project)), ...errors(401) } },
  { method: 'post', path: '/api/v1/projects', tag: 'Projects', summary: 'Create a project (admin or owner)', description: "Blank name: 422 `{errors: [\"Name can't be blank\"]}`.", credential: 'session', body: projectBody, responses: { ...created(R.project), ...errors(400, 401, 403, 422) } },
  { method: 'get', path: '/api/v1/projects/:id', tag: 'Projects', summary: 'One project', credential: 'session', responses: { ...ok(R.project), ...errors(401, 404) } },
  { method: 'patch', path: '/api/v1/projects/:id', tag: 'Projects', summary: 'Update name, description, status or settings (merged)', description: 'Routing tiers must name registered models. An archived project refuses new traces and executions (422).', credential: 'session', body: projectBody, responses: { ...ok(R.project), ...errors(400, 401, 403, 404, 422) } },
  { method: 'delete', path: '/api/v1/projects/:id', tag: 'Projects', summary: 'Delete a project and all its data (admin or owner)', credential: 'session', responses: { ...noContent, ...errors(401, 403, 404) } },
  { method: 'get', path: '/api/v1/projects/:project_id/models', tag: 'Model registry', summary: 'List model definitions', credential: 'session', responses: { ...ok(z.array(R.modelDefinition)), ...errors(401, 404) } },
  { method: 'post', path: '/api/v1/projects/:project_id/models', tag: 'Model registry', summary: 'Register a model', credential: 'session', body: z.object({ model_definition: R.modelDefinitionInput }), responses: { ...created(R.modelDefinition), ...errors(400, 401, 403, 404, 422) } },
  { method: 'get', path: '/api/v1/projects/:project_id/models/:model_id', tag: 'Model registry', summary: 'One model definition', credential: 'session', responses: { ...ok(R.modelDefinition), ...errors(401, 404) } },
  { method: 'patch', path: '/api/v1/projects/:project_id/models/:model_id', tag: 'Model registry', summary: 'Update a model definition (partial; api_key rotates the stored key)', credential: 'session', body: z.object({ model_definition: R.modelDefinitionInput.partial() }), responses: { ...ok(R.modelDefinition), ...errors(400, 401, 403, 404, 422) } },
  { method: 'delete', path: '/api/v1/projects/:project_id/models/:model_id', tag: 'Model registry', summary: 'Remove a model (422 while a routing tier or the shadow model uses it)', credential: 'session', responses: { ...noContent, ...errors(401, 403, 404, 422) } },

  // API keys
  { method: 'get', path: '/api/v1/keys', tag: 'API keys', summary: "The organization's keys", credential: 'session', responses: { ...ok(z.array(R.apiKey)), ...errors(401) } },
  { method: 'post', path: '/api/v1/keys', tag: 'API keys', summary: 'Create a key (raw_key is returned once)', credential: 'session', body: keyCreateBody, responses: { ...created(R.apiKeyCreated), ...errors(400, 401, 403, 404, 422) } },
  { method: 'patch', path: '/api/v1/keys/:id', tag: 'API keys', summary: 'Set status (reset a tripped or loop_detected key to active) or hourly_limit; plain or wrapped in {key}', credential: 'session', body: keyPatchBody, responses: { ...ok(R.apiKey), ...errors(400, 401, 403, 404, 422) } },
  { method: 'delete', path: '/api/v1/keys/:id', tag: 'API keys', summary: 'Revoke a key (every edge replica refuses it within a second)', credential: 'session', responses: { ...noContent, ...errors(401, 403, 404) } },

  // Traces and execution
  { method: 'post', path: '/api/v1/traces', tag: 'Traces', summary: 'Create a trace', credential: 'api_key', body: traceCreateBody, responses: { ...created(R.trace), ...KEYED, ...errors(422) } },
  { method: 'get', path: '/api/v1/traces', tag: 'Traces', summary: 'List traces, newest first', description: 'With an API key: its project. With the dashboard session: `project_id` names a project of the organization.', credential: 'session_or_api_key', query: traceListQuery, responses: { ...ok(R.tracePage), ...KEYED } },
  { method: 'get', path: '/api/v1/traces/:id', tag: 'Traces', summary: 'A trace with steps, summary, security and routing decision', credential: 'session_or_api_key', query: projectQuery, responses: { ...ok(R.traceDetail), ...KEYED, ...errors(404) } },
  { method: 'patch', path: '/api/v1/traces/:id/complete', tag: 'Traces', summary: 'Seal a pending trace and grade it', description: GRADING_RULES, credential: 'api_key', responses: { ...ok(R.traceCompleted), ...KEYED, ...errors(404, 422) } },
  { method: 'post', path: '/api/v1/executions', tag: 'Execution', summary: 'Guardrail → routing → model → output scan → ledger', description: 'Blocked reasons: `Request blocked by risk check`, `No private model configured for sensitive routing`, `No model configured — set routing tiers or fallbacks in project settings`. Personal data routes to the secure tier. Tool loop: answer `tool_calls_pending`, then send `tool_results` with `parent_step_id`.', credential: 'api_key', body: executionBody, responses: { ...ok(R.executionResult, 'Text, tool calls pending, or blocked (all 200)'), ...METERED } },
  { method: 'get', path: '/api/v1/executions/stream', tag: 'Execution', summary: 'Server-sent chat.completion.chunk events, ending with `data: [DONE]`', description: 'A blocked request answers the blocked JSON result before any event. A client disconnect cancels the upstream call; the step is still recorded.', credential: 'api_key', query: streamQuery, responses: { ...ok(z.string().describe('text/event-stream')), ...METERED } },
  { method: 'post', path: '/api/v1/runs', tag: 'Execution', summary: 'A direct run of one registered model (no routing, no fallback)', credential: 'api_key', body: runBody, responses: { ...ok(R.executionResult), ...METERED } },
  { method: 'post', path: '/api/v1/checks', tag: 'Execution', summary: 'Safety check only; always 200', credential: 'api_key', body: checkBody, responses: { ...ok(R.safetyCheck), ...KEYED, ...errors(413, 422) } },
  { method: 'post', path: '/api/v1/logs', tag: 'Execution', summary: 'Store a custom log step (output: any JSON object; `user_rating` counts in grading)', credential: 'api_key', body: logBody, responses: { ...ok(R.logReceipt), ...KEYED, ...errors(422) } },
  { method: 'post', path: '/api/v1/simulate', tag: 'Execution', summary: 'Routing dry run: no model called, nothing recorded', description: 'Requires SDK mode: the `X-Gateway-SDK: <name>/<version>` header that client libraries send (400 without it).', credential: 'api_key', body: simulateBody, responses: { ...ok(R.simulation), ...KEYED, ...errors(404) } },
  { method: 'get', path: '/api/v1/sdk/config', tag: 'SDK', summary: 'Capabilities and limits for client libraries', credential: 'api_key', responses: { ...ok(R.sdkConfig), ...KEYED } },
  { method: 'get', path: '/api/v1/sdk/policy', tag: 'SDK', summary: "The project's guardrail rules, risk threshold and routing tiers (for the private-network agent; not metered)", credential: 'api_key', responses: { ...ok(R.sdkPolicy), ...errors(401, 503) } },

  // Learning from the ledger
  { method: 'get', path: '/api/v1/stats', tag: 'Statistics', summary: 'Statistics of a project (window in rolling hours, or start_date/end_date)', credential: 'session_or_api_key', query: statsQuery, responses: { ...ok(R.stats), ...errors(400, 401, 404) } },
  { method: 'post', path: '/api/v1/replay', tag: 'Replay', summary: 'Replay a trace with overrides', description: '202 `{job_id, status: queued}`, or 200 with the cached completed result (incl. overrides) for the same trace and overrides within an hour. `force_model` and `compare_models` are mutually exclusive.', credential: 'session_or_api_key', body: replayBody, responses: { 202: { description: 'Queued', schema: R.replayJob }, ...ok(R.replayJob, 'Cached result'), ...KEYED, ...errors(422) } },
  { method: 'get', path: '/api/v1/replay/:job_id', tag: 'Replay', summary: 'Replay job status and result (poll every 1–2 s)', credential: 'session_or_api_key', query: projectQuery, responses: { ...ok(R.replayJob), ...KEYED, ...errors(404) } },
  { method: 'get', path: '/api/v1/projects/:project_id/insights', tag: 'Insights', summary: 'Active insights', credential: 'session', responses: { ...ok(z.array(R.insight)), ...errors(401, 404) } },
  { method: 'post', path: '/api/v1/projects/:project_id/insights/refresh', tag: 'Insights', summary: 'Compute insights now', credential: 'session', responses: { 202: { description: 'Computed', schema: z.object({ computed: z.number().int() }) }, ...errors(401, 404) } },
  { method: 'patch', path: '/api/v1/projects/:project_id/insights/:insight_id/dismiss', tag: 'Insights', summary: 'Dismiss an insight (status `dismissed`)', credential: 'session', responses: { ...ok(R.insight), ...errors(401, 404) } },

  // Operations
  { method: 'get', path: '/up', tag: 'Operations', summary: 'Liveness of the gateway (or the private-network agent)', credential: 'none', responses: ok(z.object({ status: z.string(), version: z.string() })) },
  { method: 'get', path: '/api/v1/openapi.json', tag: 'Operations', summary: 'This document', credential: 'none', responses: ok(z.record(z.string(), z.unknown())) },
];
