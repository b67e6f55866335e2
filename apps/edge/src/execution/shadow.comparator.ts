import type { Logger } from '@gateway/logging';
import type { controlplane, providerproxy } from '@gateway/proto';
import type { EdgeClients } from '../clients';
import { settingsOf } from './project-policy';
import type { Caller } from './step-recorder';

const WORD = /[\p{L}\p{N}]+/gu;

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(WORD)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}

/**
 * Agreement of two answers, 0..1: cosine similarity of their word-count vectors. Cheap,
 * deterministic and language-agnostic; 1 for the same words in any order, 0 for no overlap.
 * Two empty answers agree (1).
 */
export function answerSimilarity(a: string, b: string): number {
  const left = termCounts(a);
  const right = termCounts(b);
  if (left.size === 0 && right.size === 0) return 1;
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [term, count] of left) {
    leftNorm += count * count;
    dot += count * (right.get(term) ?? 0);
  }
  for (const count of right.values()) rightNorm += count * count;
  if (leftNorm === 0 || rightNorm === 0) return 0;
  return Math.round((dot / Math.sqrt(leftNorm * rightNorm)) * 1e4) / 1e4;
}

/**
 * Shadow mode: when `settings.shadow_model` names a registered model, the same conversation is
 * sent to it after the caller has its answer (never on the request path), the answers are
 * compared and the score is stored on the trace (`security.shadow_score`). Shadow calls are real
 * provider calls; their cost is stored with the comparison, not added to the trace's cost.
 */
export class ShadowComparator {
  constructor(
    private readonly clients: Pick<EdgeClients, 'providerProxy' | 'ledger'>,
    private readonly logger: Logger,
  ) {}

  compareLater(caller: Caller, traceId: string, stepId: number, policy: controlplane.ProjectPolicy, messages: providerproxy.ChatMessage[], answer: string, answeredBy: string): void {
    const shadowModel = settingsOf(policy).shadow_model;
    if (!shadowModel || shadowModel === answeredBy || !policy.models.some((model) => model.identifier === shadowModel)) return;
    setImmediate(() => {
      void this.compare(caller, traceId, stepId, shadowModel, messages, answer).catch((error: unknown) =>
        this.logger.warn({ err: error, traceId, shadowModel }, 'shadow comparison failed'),
      );
    });
  }

  private async compare(caller: Caller, traceId: string, stepId: number, shadowModel: string, messages: providerproxy.ChatMessage[], answer: string): Promise<void> {
    const started = Date.now();
    const shadow = await this.clients.providerProxy.complete({ projectId: caller.projectId, modelPath: [shadowModel], messages, tools: [], maxTokens: undefined, privateModelsOnly: false });
    await this.clients.ledger.recordShadowResult({
      actor: caller.actor,
      projectId: caller.projectId,
      traceId,
      stepId,
      shadowModel,
      score: answerSimilarity(answer, shadow.text),
      shadowCost: shadow.costUsd,
      shadowLatencyMs: Date.now() - started,
    });
  }
}
