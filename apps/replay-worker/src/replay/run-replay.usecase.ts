import { DomainError, isDomainError } from '@gateway/errors';
import type { ProjectPolicyCache, ServiceClient } from '@gateway/grpc';
import { ledger, type controlplane, type providerproxy } from '@gateway/proto';
import type { ReplayJobRecord, VariantProgress } from '../jobs/replay-job.types';
import { buildComparison, type ReplayOutcome } from './comparison';
import { planReplay, type ModelPrice, type PlannedCall } from './replay-plan';

export type LedgerClient = Pick<ServiceClient<typeof ledger.LedgerServiceService>, 'getTrace' | 'createTrace' | 'recordStep' | 'completeTrace'>;
export type ProviderClient = Pick<ServiceClient<typeof providerproxy.ProviderProxyServiceService>, 'complete'>;

export interface RunReplayDeps {
  ledger: LedgerClient;
  provider: ProviderClient;
  policies: Pick<ProjectPolicyCache, 'get'>;
  modelCallDeadlineMs: number;
}

/** Errors worth another attempt (a dependency away); anything else fails the job at once. */
export function isTransient(error: unknown): boolean {
  if (isDomainError(error)) return error.code === 'UNAVAILABLE' || error.code === 'INTERNAL';
  return true;
}

export class ReplayAbortedError extends Error {
  constructor() {
    super('replay lease lost; another worker took the job over');
    this.name = 'ReplayAbortedError';
  }
}

function priceTable(policy: controlplane.ProjectPolicy): Map<string, ModelPrice & { infrastructure: string }> {
  return new Map(
    policy.models.map((model) => {
      const infrastructure = (model.additionalConfig as Record<string, unknown> | undefined)?.infrastructure;
      return [model.identifier, { inputCostPer1k: model.inputCostPer1k, outputCostPer1k: model.outputCostPer1k, infrastructure: typeof infrastructure === 'string' ? infrastructure : '' }];
    }),
  );
}

function messagesOf(step: ledger.Step): providerproxy.ChatMessage[] {
  if (step.conversationJson) {
    try {
      const parsed = JSON.parse(step.conversationJson) as unknown;
      if (Array.isArray(parsed) && parsed.length > 0) {
        return parsed.map((m: Record<string, unknown>) => ({
          role: String(m.role ?? 'user'),
          content: String(m.content ?? ''),
          toolCalls: Array.isArray(m.toolCalls) ? (m.toolCalls as providerproxy.ToolCall[]) : [],
          toolCallId: String(m.toolCallId ?? ''),
          name: String(m.name ?? ''),
        }));
      }
    } catch {
      // fall back to the input
    }
  }
  return [{ role: 'user', content: step.input, toolCalls: [], toolCallId: '', name: '' }];
}

function toolsOf(step: ledger.Step): { [key: string]: unknown }[] {
  const tools = (step.offeredTools as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? (tools as { [key: string]: unknown }[]) : [];
}

/**
 * Runs one replay job: reads the source trace from the ledger, re-runs its model calls with the
 * overrides through provider-proxy, records each answer as a step of a new trace in state
 * `replay` (source_trace_id set), completes it for grades and builds the comparison.
 *
 * Resumable: `progress` (saved after every recorded step) says which replay traces exist and
 * which planned calls are recorded, so a job redelivered after a crash continues where it was.
 * The idempotency key of each step is `replay:<job>:<variant>:<plan key>`, so the one call that
 * was in flight at the crash is recorded once even if its answer is bought twice.
 */
export class RunReplayUseCase {
  constructor(private readonly deps: RunReplayDeps) {}

  async execute(job: ReplayJobRecord, save: (progress: VariantProgress[]) => Promise<void>, aborted: () => boolean): Promise<Record<string, unknown>> {
    const { projectId, traceId, overrides } = job;
    let source: ledger.TraceDetail;
    try {
      source = await this.deps.ledger.getTrace({ actor: undefined, projectId, traceId });
    } catch (error) {
      if (isDomainError(error) && error.code === 'NOT_FOUND') throw new DomainError('NOT_FOUND', 'Source trace no longer exists');
      throw error;
    }
    const prices = priceTable(await this.deps.policies.get(projectId));
    const compared = (overrides.compare_models?.length ?? 0) > 0;
    const models: (string | null)[] = compared ? overrides.compare_models! : [overrides.force_model ?? null];
    const progress: VariantProgress[] = job.progress ?? models.map((model) => ({ model, recorded: {} }));

    const outcomes: ReplayOutcome[] = [];
    for (const [index, variant] of progress.entries()) {
      const plan = planReplay(source.steps, overrides, variant.model, (model) => prices.get(model));
      if (!variant.replayTraceId) {
        const trace = await this.deps.ledger.createTrace({
          actor: undefined,
          projectId,
          metadata: { replay_of: traceId, replay_job_id: job.jobId, ...(variant.model ? { replay_model: variant.model } : {}) },
          revenue: undefined,
          status: 'replay',
          sourceTraceId: traceId,
        });
        variant.replayTraceId = trace.id;
        await save(progress);
      }
      for (const call of plan) {
        if (call.skipped || variant.recorded[call.key] !== undefined) continue;
        if (aborted()) throw new ReplayAbortedError();
        variant.recorded[call.key] = await this.runCall(job, index, variant, call, prices);
        await save(progress);
      }
      if (!variant.completed) {
        await this.deps.ledger.completeTrace({ actor: undefined, projectId, traceId: variant.replayTraceId }).catch((error: unknown) => {
          // Completed before a crash: the ledger refuses a second completion.
          if (!(isDomainError(error) && error.code === 'CONFLICT')) throw error;
        });
        variant.completed = true;
        await save(progress);
      }
      const detail = await this.deps.ledger.getTrace({ actor: undefined, projectId, traceId: variant.replayTraceId });
      outcomes.push({
        model: variant.model,
        replayTraceId: variant.replayTraceId,
        detail,
        skipped: plan.filter((c) => c.skipped).map((c) => ({ source_step_id: c.source.id, model: c.model, estimated_cost: c.estimatedCostUsd })),
      });
    }
    return {
      status: 'completed',
      source_trace_id: traceId,
      replay_trace_id: outcomes[0]?.replayTraceId ?? null,
      overrides,
      comparison: buildComparison(source, outcomes, compared),
    };
  }

  private async runCall(job: ReplayJobRecord, variantIndex: number, variant: VariantProgress, call: PlannedCall, prices: Map<string, ModelPrice & { infrastructure: string }>): Promise<number> {
    const source = call.source;
    const tools = toolsOf(source);
    const messages = messagesOf(source);
    const started = Date.now();
    const base = {
      actor: undefined,
      projectId: job.projectId,
      traceId: variant.replayTraceId!,
      parentStepId: call.parentKey === null ? undefined : variant.recorded[call.parentKey],
      input: source.input,
      tier: source.tier,
      infrastructure: prices.get(call.model)?.infrastructure ?? '',
      idempotencyKey: `replay:${job.jobId}:${variantIndex}:${call.key}`,
      startedAt: new Date(started).toISOString(),
      conversationJson: source.conversationJson,
      offeredTools: tools.length ? { tools } : undefined,
    };
    let response: providerproxy.CompletionResponse;
    try {
      response = await this.deps.provider.complete(
        { projectId: job.projectId, modelPath: [call.model], messages, tools, maxTokens: undefined, privateModelsOnly: source.tier === 'secure' },
        { deadlineMs: this.deps.modelCallDeadlineMs },
      );
    } catch (error) {
      if (isTransient(error)) throw error;
      // The model refused or failed for good: the replay records it, as the gateway would.
      const step = await this.deps.ledger.recordStep(stepRequest({ ...base, type: 'run', model: call.model, latencyMs: Date.now() - started, error: isDomainError(error) ? error.message : 'model call failed' }));
      return step.id;
    }
    const pending = response.toolCalls.length > 0;
    const step = await this.deps.ledger.recordStep(
      stepRequest({
        ...base,
        type: pending ? 'tool_call' : 'run',
        output: response.text,
        model: response.modelUsed || call.model,
        cost: response.costUsd,
        latencyMs: Date.now() - started,
        promptTokens: response.usage?.promptTokens ?? 0,
        completionTokens: response.usage?.completionTokens ?? 0,
        cachedTokens: response.usage?.cachedTokens ?? 0,
        toolCalls: response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
        toolName: pending ? response.toolCalls.map((c) => c.name).join(',') : '',
      }),
    );
    return step.id;
  }
}

function stepRequest(fields: Partial<ledger.RecordStepRequest>): ledger.RecordStepRequest {
  return ledger.RecordStepRequest.fromPartial({ type: 'run', ...fields });
}
