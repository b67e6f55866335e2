-- ledger: sealed grades and security on completed traces, shadow-model comparisons,
-- tool-loop history on steps, per-step retention and the indexes the purge and project
-- deletion walk.
ALTER TABLE "traces" ADD COLUMN "grades" JSONB;
ALTER TABLE "traces" ADD COLUMN "grade_findings" JSONB;
ALTER TABLE "traces" ADD COLUMN "security" JSONB;
CREATE INDEX "traces_retention_until_idx" ON "traces"("retention_until");

ALTER TABLE "steps" ADD COLUMN "conversation_json" TEXT;
ALTER TABLE "steps" ADD COLUMN "offered_tools" JSONB;
ALTER TABLE "steps" ADD COLUMN "retention_until" TIMESTAMPTZ;
CREATE INDEX "steps_retention_until_idx" ON "steps"("retention_until");
CREATE INDEX "steps_project_id_idx" ON "steps"("project_id");

CREATE TABLE "shadow_results" (
    "id" BIGSERIAL NOT NULL,
    "trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "step_id" BIGINT NOT NULL,
    "shadow_model" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "shadow_cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "shadow_latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "retention_until" TIMESTAMPTZ NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shadow_results_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "shadow_results_step_id_shadow_model_key" ON "shadow_results"("step_id", "shadow_model");
CREATE INDEX "shadow_results_trace_id_idx" ON "shadow_results"("trace_id");
CREATE INDEX "shadow_results_project_id_idx" ON "shadow_results"("project_id");
CREATE INDEX "shadow_results_retention_until_idx" ON "shadow_results"("retention_until");
