-- 0007: in step with SQLite's 0007. PostgreSQL writes one row per event ("lines" stays 1);
-- a copy from SQLite opens SQLite's bundles into rows (db/transfer.py).
ALTER TABLE events ADD COLUMN lines BIGINT NOT NULL DEFAULT 1 CHECK (lines >= 1);

-- A round's events are read with their campaign's (events_by_campaign).
DROP INDEX events_by_round;

-- The outbox's pending items only (see SQLite's 0007).
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at) WHERE status = 'pending';
DROP INDEX outbox_by_target;
CREATE INDEX outbox_by_target ON outbox (target_kind, target_id, status, next_attempt_at)
    WHERE status = 'pending';

-- The scheduler's pending timers only (see SQLite's 0007).
DROP INDEX timers_due;
CREATE INDEX timers_due ON timers (done, due_at) WHERE NOT done;
