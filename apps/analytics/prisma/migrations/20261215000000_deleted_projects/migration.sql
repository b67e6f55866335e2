-- analytics: projects whose deletion control-plane confirmed (their data is deleted); events
-- about them that happened before the deletion are not applied, so a late or redelivered event
-- cannot bring the data back.
CREATE TABLE "deleted_projects" (
    "project_id" BIGINT NOT NULL,
    "deleted_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "deleted_projects_pkey" PRIMARY KEY ("project_id")
);
