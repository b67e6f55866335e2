-- analytics: initial schema
CREATE TABLE "processed_events" (
    "event_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("event_id")
);

CREATE TABLE "trace_facts" (
    "trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "revenue" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "step_count" INTEGER NOT NULL DEFAULT 0,
    "pii_detected" BOOLEAN NOT NULL DEFAULT false,
    "injection_attempt" BOOLEAN NOT NULL DEFAULT false,
    "secret_leaked" BOOLEAN NOT NULL DEFAULT false,
    "chain_depth" INTEGER NOT NULL DEFAULT 0,
    "stall_probability" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tool_fidelity_score" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ NOT NULL,
    "completed_at" TIMESTAMPTZ,
    CONSTRAINT "trace_facts_pkey" PRIMARY KEY ("trace_id")
);
CREATE INDEX "trace_facts_project_id_created_at_idx" ON "trace_facts"("project_id", "created_at");

CREATE TABLE "step_facts" (
    "step_id" BIGINT NOT NULL,
    "trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "model" TEXT NOT NULL DEFAULT '',
    "infrastructure" TEXT NOT NULL DEFAULT '',
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tool_latency_ms" DOUBLE PRECISION,
    "output_chars" INTEGER NOT NULL DEFAULT 0,
    "refusal" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "step_facts_pkey" PRIMARY KEY ("step_id")
);
CREATE INDEX "step_facts_project_id_created_at_idx" ON "step_facts"("project_id", "created_at");
