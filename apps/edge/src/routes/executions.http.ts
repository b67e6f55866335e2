import { randomUUID } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import type { ExecutionPipeline, ExecutionResult } from '../execution/execution.usecase';
import { keyCaller } from './api-key-access';
import { handle } from './async-handler';
import { parseOr400 } from './validation';

const traceId = z.string({ message: 'trace_id is required' }).min(1, 'trace_id is required');
const input = z.string({ message: 'input is required and must be a string' });
const parentStepId = z.number({ message: 'parent_step_id must be an integer' }).int('parent_step_id must be an integer').positive('parent_step_id must be an integer');
const metadata = z.record(z.string(), z.unknown(), { message: 'metadata must be an object' }).optional();

/** SDK mode: client libraries identify themselves on every request (`<name>/<version>`). */
export const SDK_MODE_HEADER_NAME = 'X-Gateway-SDK';
const SDK_MODE_HEADER = SDK_MODE_HEADER_NAME.toLowerCase();

const functionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1, 'a function tool needs a name').max(128),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown(), { message: 'function.parameters must be an object schema' }).optional(),
  }),
});
const mcpTool = z.object({
  type: z.literal('mcp'),
  server_label: z.string().min(1, 'an mcp tool needs server_label'),
  server_url: z.string().url('server_url must be a URL'),
  require_approval: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  vpc_only: z.boolean({ message: 'vpc_only must be a boolean' }).optional(),
});
const tool = z.discriminatedUnion('type', [functionTool, mcpTool], { message: 'each tool has type "function" or "mcp"' });
const toolResult = z.object({
  tool_call_id: z.string({ message: 'tool_results[].tool_call_id is required' }).min(1),
  content: z.string({ message: 'tool_results[].content must be a string' }),
  name: z.string().optional(),
});

export const executionBody = z
  .object({
    trace_id: traceId,
    input: input.optional(),
    tools: z.array(tool, { message: 'tools must be an array' }).max(128).optional(),
    tool_results: z.array(toolResult, { message: 'tool_results must be an array' }).max(128).optional(),
    parent_step_id: parentStepId.optional(),
    metadata,
  })
  .superRefine((body, ctx) => {
    if (body.tool_results?.length && body.parent_step_id === undefined) ctx.addIssue({ code: 'custom', message: 'parent_step_id is required when sending tool_results' });
    if (!body.tool_results?.length && body.input === undefined) ctx.addIssue({ code: 'custom', message: 'input is required' });
  });

export const runBody = z.object({ trace_id: traceId, model: z.string({ message: 'model is required' }).min(1, 'model is required'), input, parent_step_id: parentStepId.optional(), metadata });
export const checkBody = z.object({ trace_id: traceId, input, metadata });
export const logBody = z.object({ trace_id: traceId, output: z.unknown(), parent_step_id: parentStepId.optional() });
export const simulateBody = z.object({ input, project_id: z.number({ message: 'project_id is required and must be an integer' }).int('project_id must be an integer'), metadata });
export const streamQuery = z.object({ trace_id: traceId, input });

function sendResult(res: Response, result: ExecutionResult): void {
  if (result.kind === 'text') res.json({ output: result.output, model: result.model, step_id: result.stepId });
  else if (result.kind === 'tool_calls') res.json({ status: 'tool_calls_pending', step_id: result.stepId, tool_calls: result.toolCalls });
  else res.json({ reason: result.reason, step_id: result.stepId });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Execution endpoints (API key): executions, stream, runs, checks, logs, simulate. */
export function executionRoutes(pipeline: ExecutionPipeline, access: RequestHandler[], logger: Logger): Router {
  const router = Router();

  router.post('/api/v1/executions', ...access, handle(async (req, res) => {
    const body = parseOr400(executionBody, req.body ?? {});
    const result = await pipeline.execute(keyCaller(req), {
      traceId: body.trace_id,
      input: body.input ?? '',
      tools: (body.tools ?? []) as Record<string, unknown>[],
      toolResults: body.tool_results ?? [],
      parentStepId: body.parent_step_id,
    });
    sendResult(res, result);
  }));

  router.post('/api/v1/runs', ...access, handle(async (req, res) => {
    const body = parseOr400(runBody, req.body ?? {});
    sendResult(res, await pipeline.run(keyCaller(req), { traceId: body.trace_id, model: body.model, input: body.input, parentStepId: body.parent_step_id }));
  }));

  router.get('/api/v1/executions/stream', ...access, handle(async (req, res) => {
    const query = parseOr400(streamQuery, req.query);
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) controller.abort();
    });
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    let streaming = false;
    let model = '';
    const chunk = (delta: { content?: string }, finishReason: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ delta, index: 0, finish_reason: finishReason }] })}\n\n`;
    try {
      const result = await pipeline.stream(
        keyCaller(req),
        query.trace_id,
        query.input,
        {
          delta: (text, usedModel) => {
            model = usedModel;
            res.write(chunk({ content: text }, null));
          },
        },
        controller.signal,
        () => {
          streaming = true;
          res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
          res.flushHeaders();
        },
      );
      if (!streaming) return sendResult(res, result);
      if (result.kind === 'text') model = result.model;
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    } catch (error) {
      if (!streaming) throw error;
      if (controller.signal.aborted || res.writableEnded) return;
      // Headers are gone: the failure travels in the stream, and the step is already recorded.
      logger.warn({ err: error }, 'stream failed after it started');
      res.write(`data: ${JSON.stringify({ error: error instanceof DomainError ? error.message : 'Upstream model stream failed' })}\n\n`);
      res.end('data: [DONE]\n\n');
    }
  }));

  router.post('/api/v1/checks', ...access, handle(async (req, res) => {
    const body = parseOr400(checkBody, req.body ?? {});
    const { check, stepId } = await pipeline.check(keyCaller(req), body.trace_id, body.input);
    res.json({
      allowed: check.allowed,
      step_id: stepId,
      ...(check.allowed ? {} : { reason: check.reason }),
      meta: {
        pii_detected: check.piiDetected,
        injection_attempt: check.injectionAttempt,
        secret_leaked: check.secretLeaked,
        risk_score: check.riskScore,
        pii_entities: check.piiEntities.map((entity) => ({ type: entity.type, start: entity.start, end: entity.end })),
      },
    });
  }));

  router.post('/api/v1/logs', ...access, handle(async (req, res) => {
    const body = parseOr400(logBody, req.body ?? {});
    if (body.output === undefined) throw new DomainError('BAD_REQUEST', 'output is required');
    if (!isObject(body.output)) throw new DomainError('VALIDATION_FAILED', 'output must be a JSON object', { errors: ['output must be a JSON object'] });
    const step = await pipeline.log(keyCaller(req), body.trace_id, body.output, body.parent_step_id);
    res.json({ step_id: step.id, trace_id: step.traceId, type: 'log', parent_step_id: step.parentStepId ?? null, created_at: step.createdAt });
  }));

  router.post('/api/v1/simulate', ...access, handle(async (req, res) => {
    // The spec: simulate "requires an API key and SDK mode"; client libraries send the header.
    if (!req.get(SDK_MODE_HEADER)) throw new DomainError('BAD_REQUEST', `POST /api/v1/simulate requires SDK mode (${SDK_MODE_HEADER_NAME} header)`);
    const body = parseOr400(simulateBody, req.body ?? {});
    const decision = await pipeline.simulate(keyCaller(req), body.project_id, body.input);
    res.json({
      status: decision.status,
      ...(decision.status !== 'blocked' && decision.tier ? { tier: decision.tier } : {}),
      ...(decision.status === 'resolved' ? { model: decision.model, estimated_cost: decision.estimatedCost ?? 0 } : {}),
      fallback_path: decision.fallbackPath,
      ...(decision.status !== 'resolved' ? { reason: decision.reason } : {}),
      ...(decision.features ? { features: decision.features } : {}),
    });
  }));
  return router;
}
