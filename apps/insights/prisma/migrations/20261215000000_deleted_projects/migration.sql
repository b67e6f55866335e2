-- insights: projects whose deletion control-plane confirmed (their data is deleted); events
-- about them that happened before the deletion are not applied, so a late or redelivered event
-- cannot bring the data back. trace_intents gets the project index the deletion reads by.
CREATE TABLE "deleted_projects" (
    "project_id" BIGINT NOT NULL,
    "deleted_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "deleted_projects_pkey" PRIMARY KEY ("project_id")
);

CREATE INDEX "trace_intents_project_id_idx" ON "trace_intents"("project_id");
