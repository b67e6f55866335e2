-- analytics: hourly rollups and latency sketches the statistics are read from
ALTER TABLE "trace_facts" ADD COLUMN "replay" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "step_rollups" (
    "project_id" BIGINT NOT NULL,
    "hour" TIMESTAMPTZ NOT NULL,
    "model" TEXT NOT NULL,
    "infrastructure" TEXT NOT NULL,
    "steps" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "model_calls" BIGINT NOT NULL DEFAULT 0,
    "model_latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "think_calls" BIGINT NOT NULL DEFAULT 0,
    "think_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tool_execs" BIGINT NOT NULL DEFAULT 0,
    "tool_exec_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tool_call_steps" BIGINT NOT NULL DEFAULT 0,
    "tool_calls" BIGINT NOT NULL DEFAULT 0,
    "fidelity_samples" BIGINT NOT NULL DEFAULT 0,
    "fidelity_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "drift_samples" BIGINT NOT NULL DEFAULT 0,
    "drift_output_chars" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "drift_refusals" BIGINT NOT NULL DEFAULT 0,
    "drift_latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "step_rollups_pkey" PRIMARY KEY ("project_id", "hour", "model", "infrastructure")
);

CREATE TABLE "latency_rollups" (
    "project_id" BIGINT NOT NULL,
    "hour" TIMESTAMPTZ NOT NULL,
    "metric" SMALLINT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "samples" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "latency_rollups_pkey" PRIMARY KEY ("project_id", "hour", "metric", "bucket")
);

CREATE TABLE "trace_rollups" (
    "project_id" BIGINT NOT NULL,
    "hour" TIMESTAMPTZ NOT NULL,
    "traces" BIGINT NOT NULL DEFAULT 0,
    "revenue" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pii_traces" BIGINT NOT NULL DEFAULT 0,
    "injection_traces" BIGINT NOT NULL DEFAULT 0,
    "secret_traces" BIGINT NOT NULL DEFAULT 0,
    "completed_traces" BIGINT NOT NULL DEFAULT 0,
    "stall_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "stall_alerts" BIGINT NOT NULL DEFAULT 0,
    "stall_monitors" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "trace_rollups_pkey" PRIMARY KEY ("project_id", "hour")
);

CREATE TABLE "chain_depth_rollups" (
    "project_id" BIGINT NOT NULL,
    "hour" TIMESTAMPTZ NOT NULL,
    "chain_depth" INTEGER NOT NULL,
    "traces" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "chain_depth_rollups_pkey" PRIMARY KEY ("project_id", "hour", "chain_depth")
);

CREATE TABLE "loop_interventions" (
    "key_id" TEXT NOT NULL,
    "intervention" INTEGER NOT NULL,
    "project_id" BIGINT NOT NULL,
    "occurred_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "loop_interventions_pkey" PRIMARY KEY ("key_id", "intervention")
);
CREATE INDEX "loop_interventions_project_id_occurred_at_idx" ON "loop_interventions"("project_id", "occurred_at");

CREATE TABLE "model_baselines" (
    "project_id" BIGINT NOT NULL,
    "model" TEXT NOT NULL,
    "samples" BIGINT NOT NULL DEFAULT 0,
    "output_chars" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "refusals" BIGINT NOT NULL DEFAULT 0,
    "latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "model_baselines_pkey" PRIMARY KEY ("project_id", "model")
);
