-- control-plane: when an admin last set an API key to active (a reset): the key's generation.
-- Edge records the generation each loop / circuit trip was decided under and clears trips of an
-- older one, so a missed key.changed broadcast cannot keep a reset key refused. Nullable, no
-- backfill: existing keys were never reset this way.
ALTER TABLE "api_keys" ADD COLUMN "reset_at" TIMESTAMPTZ;
