-- ledger: rows written before per-step retention existed keep the default of 30 days.
UPDATE "traces" SET "retention_until" = "created_at" + interval '30 days' WHERE "retention_until" IS NULL;
UPDATE "steps" SET "retention_until" = "created_at" + interval '30 days' WHERE "retention_until" IS NULL;
