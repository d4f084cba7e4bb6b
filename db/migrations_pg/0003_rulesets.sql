-- 0003 (PostgreSQL): mirrors the SQLite 0003 that makes the schema ruleset-agnostic: no
-- CHECK on round kinds or side names (any text is a valid round kind and side id), and an
-- index for the scheduler's "rounds with this status" scan. PostgreSQL's 0001 never had
-- the kind CHECK; the DROP is kept, guarded, so a database made by an early build of this
-- backend ends up the same.

ALTER TABLE rounds DROP CONSTRAINT IF EXISTS rounds_kind_check;
CREATE INDEX IF NOT EXISTS rounds_by_status ON rounds (status);
