-- control-plane: when an admin last set an API key back to active from another status. Edge
-- compares it with the time of a loop / circuit trip, so a missed key.changed broadcast cannot
-- keep a reset key refused. Nullable, no backfill: existing keys were never reset this way.
ALTER TABLE "api_keys" ADD COLUMN "reset_at" TIMESTAMPTZ;
