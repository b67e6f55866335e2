-- control-plane: MFA replay guard and sealed secret key id, invites, email verification,
-- notifications (mailer outbox), login throttling, monthly spend from step events.
ALTER TABLE "users" ADD COLUMN "mfa_secret_key_id" TEXT;
ALTER TABLE "users" ADD COLUMN "mfa_last_step" BIGINT;

CREATE TABLE "invites" (
    "id" UUID NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ NOT NULL,
    "accepted_at" TIMESTAMPTZ,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites"("token_hash");
CREATE INDEX "invites_organization_id_idx" ON "invites"("organization_id");

CREATE TABLE "email_verifications" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ NOT NULL,
    "used_at" TIMESTAMPTZ,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "email_verifications_token_hash_key" ON "email_verifications"("token_hash");
CREATE INDEX "email_verifications_user_id_idx" ON "email_verifications"("user_id");

CREATE TABLE "notifications" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "payload_ciphertext" TEXT NOT NULL,
    "payload_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ,
    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notifications_sent_at_id_idx" ON "notifications"("sent_at", "id");

CREATE TABLE "auth_failures" (
    "id" BIGSERIAL NOT NULL,
    "account" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "auth_failures_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "auth_failures_account_occurred_at_idx" ON "auth_failures"("account", "occurred_at");
CREATE INDEX "auth_failures_ip_occurred_at_idx" ON "auth_failures"("ip", "occurred_at");

CREATE TABLE "project_monthly_spend" (
    "project_id" BIGINT NOT NULL,
    "month" TEXT NOT NULL,
    "spend_usd" DECIMAL(24,12) NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "project_monthly_spend_pkey" PRIMARY KEY ("project_id","month")
);

CREATE TABLE "processed_events" (
    "event_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "processed_events_processed_at_idx" ON "processed_events"("processed_at");
