// Not generated: the grading contract (numbers and the text the OpenAPI description carries).
/**
 * Numbers behind the grades. GRADING_RULES below states the same rules in words; it is the
 * text the OpenAPI description reuses, so a change here must be mirrored there (the unit tests
 * check the key numbers appear in it).
 */

/** A model call (latency_ms) or tool execution (tool latency) above this is slow, in ms. */
export const DEFAULT_SLOW_STEP_MS = 2_000;
/** A step is wasteful when a sufficient model would have cost at most 90% of what it cost. */
export const WASTE_PRICE_RATIO = 0.9;
/** D instead of C when at least this share of the model spend (USD) was avoidable. */
export const SIGNIFICANT_OVERSPEND_SHARE = 0.5;
/** A unit above this multiple of the slow threshold is severely slow (10 s by default). */
export const SEVERELY_SLOW_FACTOR = 5;
/** D instead of C when at least this share of the timed steps was slow. */
export const SLOW_CHAIN_SHARE = 0.5;
/** chain_depth above this is a runaway chain (F). */
export const MAX_CHAIN_DEPTH = 5;
/** stall_probability above this is a likely loop (F); same as the spec's stall flag. */
export const LOOP_STALL_PROBABILITY = 0.7;
/** Unrouted steps (direct runs) with an input up to this many characters count as simple. */
export const OBVIOUSLY_SIMPLE_MAX_CHARS = 400;
/** Normalized user rating (0..1) at or below which the rating is poor (1–2 stars of 5). */
export const POOR_RATING = 0.25;
/** Normalized user rating (0..1) at or above which the rating is great (4–5 stars of 5). */
export const GREAT_RATING = 0.75;

export const GRADING_RULES = `## How traces are graded

A completed trace gets three letters, each A (best) to F (worst): \`waste\`, \`latency\` and
\`overall\`; \`optimization_grade\` equals \`overall\`. For each dimension the first matching
rule wins.

### Waste: over-spending on too capable a model

Model steps are \`run\` and \`tool_call\` steps that name a model. A model step is **wasteful**
when a cheaper registered model would have sufficed:

- The tier the step needed is the router's tier recorded on the step. A step that skipped
  routing (direct run) counts as \`simple\` when its input is at most ${OBVIOUSLY_SIMPLE_MAX_CHARS} characters and has no
  code block; otherwise it is not judged. \`secure\` steps are never wasteful: paying for a
  private model is a requirement, not waste.
- The sufficient model is the model configured for that tier in \`routing_tiers\` (or, if
  none, the cheapest registered model marked for that tier). A \`simple\` step needs no more
  than the simple tier; a \`complex\` step no more than the complex tier.
- The step is wasteful when that model's price, weighted by the step's token mix (estimated
  as characters ÷ 4 of input and output), is at most ${WASTE_PRICE_RATIO * 100}% of the used model's price.
  Its over-spend is cost × (1 − price ratio), in USD.

| Grade | Rule |
|---|---|
| F | at least 2 model steps and every one is wasteful (wrong model for every step) |
| D | 2 or more wasteful steps and the over-spend is at least ${SIGNIFICANT_OVERSPEND_SHARE * 100}% of the model cost |
| C | 2 or more wasteful steps |
| B | exactly 1 wasteful step (slightly over-engineered) |
| A | no wasteful step |

### Latency: slow steps

Timed units are each model call (\`run\` and \`tool_call\` steps, their \`latency_ms\`) and
each reported tool execution (a \`tool_call\` step's tool time). A unit is **slow** above
${DEFAULT_SLOW_STEP_MS} ms (the default threshold).

| Grade | Rule |
|---|---|
| F | 2 or more units above ${SEVERELY_SLOW_FACTOR}× the threshold (${DEFAULT_SLOW_STEP_MS * SEVERELY_SLOW_FACTOR} ms by default) |
| D | 2 or more slow units and at least ${SLOW_CHAIN_SHARE * 100}% of the units are slow (slow chain) |
| C | 2 or more slow units |
| B | exactly 1 slow unit |
| A | no slow unit |

### Overall

1. **F** when \`chain_depth\` is above ${MAX_CHAIN_DEPTH} (runaway chain), \`stall_probability\` is above
   ${LOOP_STALL_PROBABILITY} (likely loop), or waste or latency is F.
2. Otherwise start from the worse of waste and latency.
3. When both waste and latency have issues (neither is A), go one letter lower, at most to D
   (multiple issues).
4. User ratings: \`log\` steps whose output has a \`user_rating\` key count. Ratings are read on
   a 1–5 star scale (values above 1, or exactly 1) or a 0–1 scale (values below 1, or
   booleans), or as \`user_rating_scale\` (5 or 1) says, normalized to 0–1 and averaged.
   A poor average (at most ${POOR_RATING}, i.e. 1–2 stars) lowers the overall grade one letter,
   at most to D. A great average (at least ${GREAT_RATING}, i.e. 4–5 stars) raises it one letter,
   but never above the waste grade: a happy user does not hide over-spending. A rating logged
   after the trace was completed re-grades it.

Grades are computed when the trace is completed (\`PATCH /api/v1/traces/:id/complete\`) from
the project's model registry and \`routing_tiers\` at that moment; an open trace has no grade.
`;
