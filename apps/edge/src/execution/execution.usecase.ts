import { DomainError } from '@gateway/errors';
import type { ProjectPolicyCache } from '@gateway/grpc';
import type { Logger } from '@gateway/logging';
import type { controlplane, guardrail, ledger, providerproxy, router } from '@gateway/proto';
import { routeForProject } from '@gateway/routing';
import type { KeyPrincipal } from '../auth/authenticate';
import type { EdgeClients } from '../clients';
import type { ProtectionGuard, Reservation } from '../protection';
import { continueConversation, userMessage, type ToolResultInput } from './conversation';
import type { InProcessGuardrail } from './in-process-guardrail';
import { findModel, infrastructureOf, reservationEstimateUsd } from './project-policy';
import { ShadowComparator } from './shadow.comparator';
import type { Caller, StepRecorder } from './step-recorder';

export const RISK_BLOCK_REASON = 'Request blocked by risk check';

export interface KeyCaller extends Caller {
  key: KeyPrincipal;
}

export interface ExecutionInput {
  traceId: string;
  input: string;
  tools: Record<string, unknown>[];
  toolResults: ToolResultInput[];
  parentStepId: number | undefined;
}

export interface RunInput {
  traceId: string;
  model: string;
  input: string;
  parentStepId: number | undefined;
}

export interface ToolCallView {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ExecutionResult =
  | { kind: 'text'; output: string; model: string; stepId: number }
  | { kind: 'tool_calls'; stepId: number; toolCalls: ToolCallView[] }
  | { kind: 'blocked'; reason: string; stepId: number };

export interface StreamSink {
  delta(text: string, model: string): void;
}

export interface ExecutionDeps {
  clients: EdgeClients;
  policies: ProjectPolicyCache;
  /** The guardrail's scans, in-process. */
  guardrail: InProcessGuardrail;
  guard: ProtectionGuard;
  steps: StepRecorder;
  logger: Logger;
  /** Completion tokens assumed when reserving spend before a call. */
  reserveCompletionTokens: number;
}

interface Screening {
  check: guardrail.CheckResponse;
  /** PII or a credential in the input: only a private model may see it. */
  sensitive: boolean;
}

interface ModelCall {
  modelPath: string[];
  tier: string;
  messages: providerproxy.ChatMessage[];
  tools: Record<string, unknown>[];
  parentStepId: number | undefined;
  toolLatencyMs: number | undefined;
  input: string;
  screening: Screening;
}

const flagsOf = (check: guardrail.CheckResponse) => ({
  piiDetected: check.piiDetected,
  injectionAttempt: check.injectionAttempt,
  secretLeaked: check.secretLeaked,
  riskScore: check.riskScore,
});

const toolCallView = (call: providerproxy.ToolCall): ToolCallView => ({ id: call.id, name: call.name, arguments: (call.arguments ?? {}) as Record<string, unknown> });

/**
 * The governed execution path: guardrail on the input → router → spend reservation →
 * provider-proxy → guardrail on the output → ledger step → spend settlement. Blocked outcomes
 * are recorded as `blocked` steps and never reach a model. Transport-free: the HTTP routes map
 * requests and results.
 */
export class ExecutionPipeline {
  private readonly shadow: ShadowComparator;

  constructor(private readonly deps: ExecutionDeps) {
    this.shadow = new ShadowComparator(deps.clients, deps.logger);
  }

  /** POST /executions: routing by tier, or the continuation of a tool-call loop. */
  async execute(caller: KeyCaller, request: ExecutionInput): Promise<ExecutionResult> {
    refuseArchived(caller.key);
    const policy = await this.deps.policies.get(caller.projectId); // cached: no round trip in the steady state
    const inspected = [request.input, ...request.toolResults.map((result) => result.content)].filter(Boolean).join('\n\n');
    // The trace check and the parent step (ledger) travel while the input is scanned here.
    // Nothing here has side effects, so a refusal by one simply discards the others.
    const [, parent, screening] = await Promise.all([
      this.deps.steps.requireOpenTrace(caller, request.traceId),
      request.parentStepId !== undefined ? this.parentStep(caller, request.traceId, request.parentStepId) : undefined,
      this.screen(policy, inspected),
    ]);
    const blocked = await this.blockIfRisky(caller, request.traceId, request.input, screening, request.parentStepId);
    if (blocked) return blocked;

    let call: ModelCall;
    if (parent) {
      // A tool loop continues on the model that asked for the tools: its call ids are in the history.
      call = {
        modelPath: [parent.model],
        tier: parent.tier,
        messages: continueConversation(parent, request.toolResults),
        tools: request.tools,
        parentStepId: parent.id,
        toolLatencyMs: Math.max(0, Date.now() - Date.parse(parent.createdAt)),
        input: request.input,
        screening,
      };
    } else {
      const decision = this.route(caller, policy, request.input, request.tools, screening.sensitive);
      if (decision.status !== 'resolved') return this.recordBlocked(caller, request.traceId, request.input, decision.reason, screening, undefined, decision.tier);
      call = { modelPath: [decision.model, ...decision.fallbackPath.filter((m) => m !== decision.model)], tier: decision.tier, messages: [userMessage(request.input)], tools: request.tools, parentStepId: undefined, toolLatencyMs: undefined, input: request.input, screening };
    }
    const result = await this.callModel(caller, request.traceId, policy, call);
    // Sensitive requests never go to the shadow model: it may be public.
    if (!parent && result.kind === 'text' && !screening.sensitive && call.tier !== 'secure') this.shadow.compareLater(caller, request.traceId, result.stepId, policy, call.messages, result.output, result.model);
    return result;
  }

  /** POST /runs: a direct call of one registered model, no routing and no fallback. */
  async run(caller: KeyCaller, request: RunInput): Promise<ExecutionResult> {
    refuseArchived(caller.key);
    const policy = await this.deps.policies.get(caller.projectId);
    const model = findModel(policy, request.model);
    if (!model) throw new DomainError('VALIDATION_FAILED', `Model not authorized or found: ${request.model}`);
    const [, screening] = await Promise.all([this.deps.steps.requireOpenTrace(caller, request.traceId), this.screen(policy, request.input)]);
    const blocked = await this.blockIfRisky(caller, request.traceId, request.input, screening, request.parentStepId);
    if (blocked) return blocked;
    return this.callModel(caller, request.traceId, policy, {
      modelPath: [model.identifier],
      tier: '',
      messages: [userMessage(request.input)],
      tools: [],
      parentStepId: request.parentStepId,
      toolLatencyMs: undefined,
      input: request.input,
      screening,
    });
  }

  /**
   * GET /executions/stream: the same pipeline with a streamed answer. Blocked outcomes resolve
   * before the first delta. A disconnect (signal) cancels the upstream call; the step is still
   * recorded, with the partial output, an error and the cost of what was produced.
   */
  async stream(caller: KeyCaller, traceId: string, input: string, sink: StreamSink, signal: AbortSignal, onStart: () => void): Promise<ExecutionResult> {
    refuseArchived(caller.key);
    const policy = await this.deps.policies.get(caller.projectId);
    // As in execute(): the trace check travels while the input is scanned.
    const [, screening] = await Promise.all([this.deps.steps.requireOpenTrace(caller, traceId), this.screen(policy, input)]);
    const blocked = await this.blockIfRisky(caller, traceId, input, screening, undefined);
    if (blocked) return blocked;
    const route = this.route(caller, policy, input, [], screening.sensitive);
    if (route.status !== 'resolved') return this.recordBlocked(caller, traceId, input, route.reason, screening, undefined, route.tier);

    const modelPath = [route.model, ...route.fallbackPath.filter((m) => m !== route.model)];
    const messages = [userMessage(input)];
    const reservation = await this.reserve(caller, policy, modelPath, input.length);
    onStart();
    const started = Date.now();
    let text = '';
    let modelUsed = route.model;
    let done: providerproxy.CompletionResponse | undefined;
    let failure: unknown;
    try {
      const events = this.deps.clients.providerProxy.streamComplete({ projectId: caller.projectId, modelPath, messages, tools: [], maxTokens: undefined, privateModelsOnly: route.tier === 'secure' }, { signal });
      for await (const event of events) {
        if (event.delta !== undefined) {
          text += event.delta;
          sink.delta(event.delta, modelUsed);
        } else if (event.done) {
          done = event.done;
          modelUsed = done.modelUsed || modelUsed;
        }
      }
    } catch (error) {
      failure = error;
    }
    const model = findModel(policy, modelUsed);
    const error = done ? '' : signal.aborted ? 'client disconnected before the stream ended' : 'upstream stream failed before completion';
    // Without the provider's final usage the cost is estimated from what was sent and produced.
    const cost = done ? done.costUsd : reservationEstimateUsd(input.length, Math.ceil(text.length / 4), [model]);
    const settled = reservation.settle(cost).catch((settleError: unknown) => this.deps.logger.error({ err: settleError }, 'spend settlement failed'));
    const outputCheck = text ? await this.screenOutput(policy, text) : undefined;
    const step = await this.deps.steps.record(caller, traceId, {
      type: 'run',
      input,
      output: text,
      model: modelUsed,
      tier: route.tier,
      cost,
      latencyMs: Date.now() - started,
      promptTokens: done?.usage?.promptTokens ?? 0,
      completionTokens: done?.usage?.completionTokens ?? 0,
      cachedTokens: done?.usage?.cachedTokens ?? 0,
      ...mergedFlags(screening.check, outputCheck),
      error,
      infrastructure: infrastructureOf(model),
      retentionDays: model?.dataRetentionDays ?? 0,
      startedAt: new Date(started).toISOString(),
      conversationJson: JSON.stringify(messages),
    }).finally(() => settled);
    if (failure && !signal.aborted) this.deps.logger.warn({ err: failure, stepId: step.id }, 'stream ended with an upstream error');
    if (!done && !signal.aborted) throw new DomainError('UPSTREAM_FAILED', 'Upstream model stream failed');
    return { kind: 'text', output: text, model: modelUsed, stepId: step.id };
  }

  /** POST /checks: the guardrail only; a `check` step records the outcome. */
  async check(caller: KeyCaller, traceId: string, input: string): Promise<{ check: guardrail.CheckResponse; stepId: number }> {
    const [, policy] = await Promise.all([this.deps.steps.requireOpenTrace(caller, traceId), this.deps.policies.get(caller.projectId)]);
    const started = Date.now();
    const { check } = await this.screen(policy, input);
    const step = await this.deps.steps.record(caller, traceId, {
      type: 'check',
      input,
      output: { allowed: check.allowed, reason: check.reason, risk_score: check.riskScore },
      latencyMs: Date.now() - started,
      ...flagsOf(check),
    });
    return { check, stepId: step.id };
  }

  /** POST /logs: a custom event stored as given (also after completion: user ratings arrive late). */
  log(caller: KeyCaller, traceId: string, output: Record<string, unknown>, parentStepId: number | undefined): Promise<ledger.Step> {
    return this.deps.steps.record(caller, traceId, { type: 'log', output, parentStepId });
  }

  /** POST /simulate: routing dry run, nothing called and nothing recorded. */
  async simulate(caller: KeyCaller, projectId: number, input: string): Promise<router.RouteDecision> {
    if (projectId !== caller.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    const policy = await this.deps.policies.get(caller.projectId);
    const screening = await this.screen(policy, input);
    if (!screening.check.allowed && !piiOnly(screening.check)) {
      return { status: 'blocked', tier: '', model: '', fallbackPath: [], estimatedCost: undefined, reason: RISK_BLOCK_REASON, features: undefined, explanation: [] };
    }
    return this.route(caller, policy, input, [], screening.sensitive);
  }

  /** Sensitive input (PII, a credential) is routed to the secure tier: private models only. */
  private route(caller: Caller, policy: controlplane.ProjectPolicy, input: string, tools: Record<string, unknown>[], sensitive: boolean): router.RouteDecision {
    return routeForProject({ projectId: caller.projectId, input, tools, sensitive, attachments: 0 }, policy);
  }

  private async parentStep(caller: Caller, traceId: string, stepId: number): Promise<ledger.Step> {
    try {
      return await this.deps.clients.ledger.getStep({ actor: caller.actor, projectId: caller.projectId, traceId, stepId });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw new DomainError('VALIDATION_FAILED', 'parent_step_id is not a step of this trace');
      throw error;
    }
  }

  private async screen(policy: controlplane.ProjectPolicy, text: string): Promise<Screening> {
    const check = await this.deps.guardrail.check(policy, text, 'input');
    return { check, sensitive: check.piiDetected || check.secretLeaked };
  }

  private async screenOutput(policy: controlplane.ProjectPolicy, text: string): Promise<guardrail.CheckResponse | undefined> {
    try {
      return await this.deps.guardrail.check(policy, text, 'output');
    } catch (error) {
      // The answer was paid for and is delivered; a failed output scan must not lose the step.
      this.deps.logger.warn({ err: error }, 'output scan failed');
      return undefined;
    }
  }

  /**
   * Over the risk threshold blocks, except when personal data is the only reason: PII does not
   * stop a request, it sends it to the secure tier (a private model) instead.
   */
  private async blockIfRisky(caller: Caller, traceId: string, input: string, screening: Screening, parentStepId: number | undefined): Promise<ExecutionResult | undefined> {
    if (screening.check.allowed || piiOnly(screening.check)) return undefined;
    return this.recordBlocked(caller, traceId, input, RISK_BLOCK_REASON, screening, parentStepId, '');
  }

  private async recordBlocked(caller: Caller, traceId: string, input: string, reason: string, screening: Screening, parentStepId: number | undefined, tier: string): Promise<ExecutionResult> {
    const step = await this.deps.steps.record(caller, traceId, { type: 'blocked', input, blockedReason: reason, parentStepId, tier, ...flagsOf(screening.check) });
    return { kind: 'blocked', reason, stepId: step.id };
  }

  private async reserve(caller: KeyCaller, policy: controlplane.ProjectPolicy, modelPath: string[], promptChars: number): Promise<Reservation> {
    const estimate = reservationEstimateUsd(promptChars, this.deps.reserveCompletionTokens, modelPath.map((identifier) => findModel(policy, identifier)));
    return this.deps.guard.reserve(caller.key, estimate, { ip: caller.actor.ip, userAgent: caller.actor.userAgent });
  }

  private async callModel(caller: KeyCaller, traceId: string, policy: controlplane.ProjectPolicy, call: ModelCall): Promise<ExecutionResult> {
    const promptChars = call.messages.reduce((sum, message) => sum + message.content.length, 0) + JSON.stringify(call.tools).length;
    const reservation = await this.reserve(caller, policy, call.modelPath, promptChars);
    const started = Date.now();
    const base = {
      input: call.input,
      tier: call.tier,
      parentStepId: call.parentStepId,
      toolLatencyMs: call.toolLatencyMs,
      startedAt: new Date(started).toISOString(),
      conversationJson: JSON.stringify(call.messages),
      offeredTools: call.tools.length ? { tools: call.tools } : undefined,
    };
    let response: providerproxy.CompletionResponse;
    try {
      response = await this.deps.clients.providerProxy.complete({
        projectId: caller.projectId,
        modelPath: call.modelPath,
        messages: call.messages,
        tools: call.tools,
        maxTokens: undefined,
        // Sensitive data and vpc_only tools never fall back to a public model.
        privateModelsOnly: call.tier === 'secure' || call.tools.some((tool) => tool.type === 'mcp' && tool.vpc_only === true),
      });
    } catch (error) {
      await reservation.release().catch(() => undefined);
      const model = findModel(policy, call.modelPath[0]);
      await this.deps.steps.record(caller, traceId, {
        ...base,
        type: 'run',
        model: call.modelPath[0],
        latencyMs: Date.now() - started,
        error: error instanceof DomainError ? error.message : 'model call failed',
        infrastructure: infrastructureOf(model),
        retentionDays: model?.dataRetentionDays ?? 0,
        ...flagsOf(call.screening.check),
      });
      throw error instanceof DomainError && error.code !== 'INTERNAL' ? error : new DomainError('UPSTREAM_FAILED', 'Upstream model call failed');
    }
    // Settlement (Redis) travels while the output is scanned and the step recorded; it is awaited
    // before answering, so the caller's next request sees the actual spend.
    const settled = reservation.settle(response.costUsd).catch((error: unknown) => this.deps.logger.error({ err: error }, 'spend settlement failed'));
    const outputCheck = response.text ? await this.screenOutput(policy, response.text) : undefined;
    const model = findModel(policy, response.modelUsed);
    const pending = response.toolCalls.length > 0;
    const step = await this.deps.steps.record(caller, traceId, {
      ...base,
      type: pending ? 'tool_call' : 'run',
      output: response.text,
      model: response.modelUsed,
      cost: response.costUsd,
      latencyMs: Date.now() - started,
      promptTokens: response.usage?.promptTokens ?? 0,
      completionTokens: response.usage?.completionTokens ?? 0,
      cachedTokens: response.usage?.cachedTokens ?? 0,
      toolCalls: response.toolCalls,
      toolName: pending ? response.toolCalls.map((c) => c.name).join(',') : '',
      infrastructure: infrastructureOf(model),
      retentionDays: model?.dataRetentionDays ?? 0,
      ...mergedFlags(call.screening.check, outputCheck),
    }).finally(() => settled);
    if (pending) return { kind: 'tool_calls', stepId: step.id, toolCalls: response.toolCalls.map(toolCallView) };
    return { kind: 'text', output: response.text, model: response.modelUsed, stepId: step.id };
  }
}

/** Over the threshold because of personal data alone: reroute to the secure tier, do not block. */
function piiOnly(check: guardrail.CheckResponse): boolean {
  return check.reason === 'pii_detected' && !check.injectionAttempt && !check.secretLeaked && !check.policyViolation;
}

function refuseArchived(key: KeyPrincipal): void {
  if (key.projectStatus === 'archived') throw new DomainError('VALIDATION_FAILED', 'Project is archived: new traces and executions are refused');
}

/** Input flags, plus what the output scan found (a leaked secret or echoed personal data). */
function mergedFlags(input: guardrail.CheckResponse, output: guardrail.CheckResponse | undefined) {
  return {
    piiDetected: input.piiDetected || Boolean(output?.piiDetected),
    injectionAttempt: input.injectionAttempt,
    secretLeaked: input.secretLeaked || Boolean(output?.secretLeaked),
    riskScore: Math.max(input.riskScore, output?.riskScore ?? 0),
  };
}
