import type { events } from '@gateway/proto';
import { bucketOf, LATENCY_METRICS, type LatencyMetric } from '../stats/latency-sketch';

/** Label of a model step without `additional_config.infrastructure` (as the ledger's summary). */
export const UNKNOWN_INFRASTRUCTURE = 'unknown';

/** What one step adds to its hour's rollups. Pure: derived from the event alone. */
export interface StepContribution {
  model: string;
  infrastructure: string;
  cost: number;
  modelCall: boolean;
  latencyMs: number;
  think: boolean;
  toolExecMs: number | null;
  toolCallStep: boolean;
  toolCalls: number;
  fidelity: number | null;
  /** A model's answer (run without error): a bias-drift sample. */
  answer: boolean;
  outputChars: number;
  refusal: boolean;
  sketch: { metric: LatencyMetric; bucket: number }[];
}

/**
 * - model call: a `run` or `tool_call` step naming a model (each is one request to a model);
 * - model think: a model call inside a tool loop (a tool_call step, or a run answering tool results,
 *   which carries the tools' execution time);
 * - tool execution: the tools' time reported on the step that sent their results;
 * - tool calls: the calls a tool_call step asked for (its tool names), at least one.
 */
export function stepContribution(event: events.StepRecorded): StepContribution {
  const modelCall = (event.type === 'run' || event.type === 'tool_call') && event.model !== '';
  const toolExecMs = event.toolLatencyMs ?? null;
  const think = modelCall && (event.type === 'tool_call' || toolExecMs !== null);
  const toolCallStep = event.type === 'tool_call';
  const names = event.toolName.split(',').map((name) => name.trim()).filter(Boolean);
  const latencyMs = Number.isFinite(event.latencyMs) ? Math.max(0, event.latencyMs) : 0;
  const sketch: StepContribution['sketch'] = [];
  if (modelCall) sketch.push({ metric: LATENCY_METRICS.modelCall, bucket: bucketOf(latencyMs) });
  if (think) sketch.push({ metric: LATENCY_METRICS.modelThink, bucket: bucketOf(latencyMs) });
  if (toolExecMs !== null) sketch.push({ metric: LATENCY_METRICS.toolExecution, bucket: bucketOf(toolExecMs) });
  return {
    model: event.model,
    infrastructure: event.model ? event.infrastructure || UNKNOWN_INFRASTRUCTURE : '',
    cost: Number.isFinite(event.cost) ? event.cost : 0,
    modelCall,
    latencyMs,
    think,
    toolExecMs,
    toolCallStep,
    toolCalls: toolCallStep ? Math.max(1, names.length) : 0,
    fidelity: event.toolFidelityScore ?? null,
    answer: event.type === 'run' && event.model !== '' && !event.error,
    outputChars: Math.max(0, event.outputChars),
    refusal: event.refusal,
    sketch,
  };
}
