// Public surface of the ledger's trace summary: pure functions over the steps of one trace.
export type { StepRecord, TraceSummary } from './summary.types';
export { percentile } from './percentile.calculator';
export { chainDepth } from './chain-depth.calculator';
export { STALL_FLAG_THRESHOLD, STALL_WEIGHTS, isStallFlagged, stableStringify, stallProbability } from './stall-probability.calculator';
export { UNKNOWN_INFRASTRUCTURE, summarizeTrace, toolOverheadMs } from './summarize-trace.usecase';
