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

/** A key's last reset time (ms epoch) as the scripts compare it: an integer, 0 when never reset. */
export function resetAtMsOf(resetAtMs: number | undefined): number {
  if (resetAtMs === undefined) return 0;
  if (!Number.isFinite(resetAtMs) || resetAtMs < 0) throw new RangeError(`resetAtMs must be a non-negative number of ms, got ${String(resetAtMs)}`);
  return Math.floor(resetAtMs);
}
