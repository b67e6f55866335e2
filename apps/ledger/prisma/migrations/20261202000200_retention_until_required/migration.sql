-- ledger: every trace and step now carries the time its data is purged (set on write).
ALTER TABLE "traces" ALTER COLUMN "retention_until" SET NOT NULL;
ALTER TABLE "steps" ALTER COLUMN "retention_until" SET NOT NULL;
