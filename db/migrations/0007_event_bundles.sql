-- 0007: a campaign's share of the file (issue 13). A run of events written together for the
-- same turn (a round's resolution, a strike told in full) is kept as one row: "lines" says
-- how many events the row holds (db/bundles.py). Rows written before this hold one each.
ALTER TABLE events ADD COLUMN lines INTEGER NOT NULL DEFAULT 1 CHECK (lines >= 1);

-- Reading a round's events (a stuck round's failures, a rollback voiding rounds) always
-- names the campaign too, so the campaign's index finds them among that campaign's few
-- rows; an index per round cost as much as the data it pointed at.
DROP INDEX events_by_round;
