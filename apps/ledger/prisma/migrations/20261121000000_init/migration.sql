-- ledger: initial schema
CREATE TABLE "traces" (
    "id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "revenue" DOUBLE PRECISION,
    "source_trace_id" UUID,
    "routing_tier" TEXT,
    "routing_model" TEXT,
    "summary" JSONB,
    "optimization_grade" TEXT,
    "retention_until" TIMESTAMPTZ,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ,
    CONSTRAINT "traces_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "traces_project_id_created_at_idx" ON "traces"("project_id", "created_at");
CREATE INDEX "traces_project_id_status_created_at_idx" ON "traces"("project_id", "status", "created_at");

CREATE TABLE "steps" (
    "id" BIGSERIAL NOT NULL,
    "trace_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "parent_step_id" BIGINT,
    "input" TEXT NOT NULL DEFAULT '',
    "output" JSONB,
    "model" TEXT NOT NULL DEFAULT '',
    "tier" TEXT NOT NULL DEFAULT '',
    "infrastructure" TEXT NOT NULL DEFAULT '',
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "cached_tokens" INTEGER NOT NULL DEFAULT 0,
    "blocked_reason" TEXT NOT NULL DEFAULT '',
    "tool_calls" JSONB NOT NULL DEFAULT '[]',
    "tool_name" TEXT NOT NULL DEFAULT '',
    "tool_latency_ms" DOUBLE PRECISION,
    "pii_detected" BOOLEAN NOT NULL DEFAULT false,
    "injection_attempt" BOOLEAN NOT NULL DEFAULT false,
    "secret_leaked" BOOLEAN NOT NULL DEFAULT false,
    "risk_score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tool_fidelity_score" DOUBLE PRECISION,
    "error" TEXT NOT NULL DEFAULT '',
    "idempotency_key" TEXT,
    "started_at" TIMESTAMPTZ,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "steps_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "steps_trace_id_idempotency_key_key" ON "steps"("trace_id", "idempotency_key");
CREATE INDEX "steps_trace_id_id_idx" ON "steps"("trace_id", "id");

CREATE TABLE "outbox_events" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ,
    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_events_event_id_key" ON "outbox_events"("event_id");
CREATE INDEX "outbox_events_published_at_id_idx" ON "outbox_events"("published_at", "id");
