-- 0007: a campaign's share of the file (issue 13). A run of events written together for the
-- same turn (a round's resolution, a strike told in full) is kept as one row: "lines" says
-- how many events the row holds (db/bundles.py). Rows written before this hold one each.
ALTER TABLE events ADD COLUMN lines INTEGER NOT NULL DEFAULT 1 CHECK (lines >= 1);

-- Reading a round's events (a stuck round's failures, a rollback voiding rounds) always
-- names the campaign too, so the campaign's index finds them among that campaign's few
-- rows; an index per round cost as much as the data it pointed at.
DROP INDEX events_by_round;

-- The outbox worker only ever looks for pending items (due, or leased to the same
-- destination), and a delivered item stays in the table for good: these two indexes keep
-- the pending items only, so they stay as small as the queue instead of growing with every
-- message ever sent (same columns as before, so the planner picks them as it did).
-- outbox_coalesce keeps every item: a GM's redelivery looks up failed ones.
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at) WHERE status = 'pending';
DROP INDEX outbox_by_target;
CREATE INDEX outbox_by_target ON outbox (target_kind, target_id, status, next_attempt_at)
    WHERE status = 'pending';

-- Likewise the scheduler's due timers: a round's timers are all done once it resolves, and
-- the tick looks for pending ones only.
DROP INDEX timers_due;
CREATE INDEX timers_due ON timers (done, due_at) WHERE done = 0;
