/** Guards against caller bugs that would otherwise write counters under a junk key. */
export function assertKeyId(keyId: string): void {
  if (typeof keyId !== 'string' || keyId.length === 0 || keyId.length > 200) {
    throw new TypeError(`keyId must be a non-empty string of at most 200 characters`);
  }
}

export function assertProjectId(projectId: number): void {
  if (!Number.isSafeInteger(projectId) || projectId < 0) {
    throw new TypeError(`projectId must be a non-negative integer, got ${String(projectId)}`);
  }
}

/** The largest time a JavaScript Date holds (ms epoch). */
const MAX_EPOCH_MS = 8.64e15;

/** A key's reset generation (ms epoch of its last reset, 0 = never) as the scripts compare it: an integer. */
export function resetAtMsOf(resetAtMs: number | undefined): number {
  if (resetAtMs === undefined) return 0;
  if (!Number.isSafeInteger(resetAtMs) || resetAtMs < 0 || resetAtMs > MAX_EPOCH_MS) throw new RangeError(`resetAtMs must be an integer ms epoch, got ${String(resetAtMs)}`);
  return resetAtMs;
}
