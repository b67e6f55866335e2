// The grading rules are part of the public contract (the OpenAPI description carries their text),
// so numbers and text live with the contracts in @gateway/proto; the ledger applies them.
export {
  DEFAULT_SLOW_STEP_MS,
  GRADING_RULES,
  GREAT_RATING,
  LOOP_STALL_PROBABILITY,
  MAX_CHAIN_DEPTH,
  OBVIOUSLY_SIMPLE_MAX_CHARS,
  POOR_RATING,
  SEVERELY_SLOW_FACTOR,
  SIGNIFICANT_OVERSPEND_SHARE,
  SLOW_CHAIN_SHARE,
  WASTE_PRICE_RATIO,
} from '@gateway/proto';
