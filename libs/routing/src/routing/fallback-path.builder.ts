import type { RegistryModel } from './routing.types';

export interface FallbackPathOptions {
  /**
   * Leave public models out of the path (secure tier, vpc_only tools). A skipped model's own
   * `fallback_identifier` is still followed, so a private model further down the chain remains
   * reachable.
   */
  privateOnly?: boolean;
}

/**
 * Follows `additional_config.fallback_identifier` from `start`. The walk stops at the first
 * missing link (no identifier, or one not registered: its own fallback is unknown) and at the
 * first model already visited, so A→B→A and self-loops terminate. `start` is never in the path.
 */
export function buildFallbackPath(start: string, registry: RegistryModel[], options: FallbackPathOptions = {}): string[] {
  const byIdentifier = new Map(registry.map((model) => [model.identifier, model]));
  const visited = new Set<string>([start]);
  const path: string[] = [];
  let current = byIdentifier.get(start);
  while (current) {
    const next = fallbackIdentifierOf(current);
    if (next === undefined || visited.has(next)) break;
    visited.add(next);
    current = byIdentifier.get(next);
    if (current && !(options.privateOnly && current.isPublic)) path.push(current.identifier);
  }
  return path;
}

function fallbackIdentifierOf(model: RegistryModel): string | undefined {
  const value = model.additionalConfig?.['fallback_identifier'];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
