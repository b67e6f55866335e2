import type { EventBus, Subscription } from '@gateway/bus';
import { events, Subjects, type controlplane } from '@gateway/proto';
import type { ModelTarget, ProviderName } from '../providers';

/** A registry entry ready to call: its decrypted key and whether it is a private model. */
export interface ResolvedModel {
  target: ModelTarget;
  /** `false` marks a private or internal model (the only kind a private-only request may reach). */
  isPublic: boolean;
}

export interface CredentialsSource {
  resolveModelCredentials(request: controlplane.ResolveModelCredentialsRequest): Promise<controlplane.ModelCredentials>;
}

interface Entry {
  model: ResolvedModel;
  until: number;
}

/**
 * Model definitions with their decrypted keys, from control-plane's ResolveModelCredentials,
 * kept in memory for `ttlMs` (0 disables caching). A `project.changed` event drops a project's
 * entries at once, so a rotated key or an edited base_url is used by the next call.
 * Identifiers control-plane does not know are not cached: a model created a moment ago is found.
 */
export class ModelCredentialsCache {
  private readonly projects = new Map<number, Map<string, Entry>>();
  /** Bumped by every invalidation: an answer requested before it must not fill the cache. */
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly source: CredentialsSource,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The known models among `identifiers`; unknown identifiers are absent from the map. */
  async resolve(projectId: number, identifiers: string[]): Promise<Map<string, ResolvedModel>> {
    const found = new Map<string, ResolvedModel>();
    const cached = this.projects.get(projectId);
    const missing: string[] = [];
    for (const identifier of new Set(identifiers)) {
      const entry = cached?.get(identifier);
      if (entry && entry.until > this.now()) found.set(identifier, entry.model);
      else missing.push(identifier);
    }
    if (missing.length === 0) return found;

    const generation = this.generations.get(projectId) ?? 0;
    const answer = await this.source.resolveModelCredentials({ projectId, identifiers: missing });
    const fresh = (this.generations.get(projectId) ?? 0) === generation;
    for (const { model, apiKey } of answer.models) {
      if (!model || !missing.includes(model.identifier)) continue;
      const resolved = toResolvedModel(model, apiKey);
      found.set(model.identifier, resolved);
      if (fresh && this.ttlMs > 0) this.entriesOf(projectId).set(model.identifier, { model: resolved, until: this.now() + this.ttlMs });
    }
    return found;
  }

  invalidate(projectId: number): void {
    this.projects.delete(projectId);
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  async listen(bus: EventBus): Promise<Subscription> {
    return bus.broadcast(Subjects.projectChanged, async (message) => this.invalidate(events.ProjectChanged.decode(message.data).projectId));
  }

  private entriesOf(projectId: number): Map<string, Entry> {
    let entries = this.projects.get(projectId);
    if (!entries) {
      entries = new Map();
      this.projects.set(projectId, entries);
    }
    return entries;
  }
}

export function toResolvedModel(model: controlplane.ModelDefinition, apiKey: string): ResolvedModel {
  return {
    isPublic: model.isPublic,
    target: {
      identifier: model.identifier,
      // Checked against the adapters when the call is planned: an unknown provider is refused there.
      provider: model.provider as ProviderName,
      baseUrl: model.baseUrl.trim() === '' ? undefined : model.baseUrl,
      apiKey: apiKey === '' ? undefined : apiKey,
      inputCostPer1k: model.inputCostPer1k,
      outputCostPer1k: model.outputCostPer1k,
      additionalConfig: model.additionalConfig ?? {},
    },
  };
}
