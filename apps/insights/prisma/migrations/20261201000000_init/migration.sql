-- insights: initial schema
CREATE TABLE "processed_events" (
    "event_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("event_id")
);

CREATE TABLE "trace_intents" (
    "trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "intent" TEXT NOT NULL,
    "replay" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "trace_intents_pkey" PRIMARY KEY ("trace_id")
);

CREATE TABLE "step_observations" (
    "step_id" BIGINT NOT NULL,
    "project_id" BIGINT NOT NULL,
    "trace_id" UUID NOT NULL,
    "intent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "tier" TEXT NOT NULL DEFAULT '',
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "step_observations_pkey" PRIMARY KEY ("step_id")
);
CREATE INDEX "step_observations_project_id_created_at_idx" ON "step_observations"("project_id", "created_at");

CREATE TABLE "replay_comparisons" (
    "replay_trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "source_trace_id" UUID NOT NULL,
    "intent" TEXT NOT NULL,
    "source_model" TEXT NOT NULL,
    "replay_model" TEXT NOT NULL,
    "source_cost" DOUBLE PRECISION NOT NULL,
    "replay_cost" DOUBLE PRECISION NOT NULL,
    "source_grade" TEXT NOT NULL DEFAULT '',
    "replay_grade" TEXT NOT NULL DEFAULT '',
    "similarity" DOUBLE PRECISION NOT NULL,
    "equivalent" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "replay_comparisons_pkey" PRIMARY KEY ("replay_trace_id")
);
CREATE INDEX "replay_comparisons_project_id_created_at_idx" ON "replay_comparisons"("project_id", "created_at");

CREATE TABLE "insights" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "insight_type" TEXT NOT NULL,
    "pattern_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "estimated_savings_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "figure" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dismissed_at" TIMESTAMPTZ,
    CONSTRAINT "insights_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "insights_project_id_status_idx" ON "insights"("project_id", "status");
CREATE INDEX "insights_project_id_pattern_key_idx" ON "insights"("project_id", "pattern_key");
-- At most one active insight per pattern (refreshes of one project are also serialized by an advisory lock).
CREATE UNIQUE INDEX "insights_one_active_per_pattern" ON "insights"("project_id", "pattern_key") WHERE "status" = 'active';
