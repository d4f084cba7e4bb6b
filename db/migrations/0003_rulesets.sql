-- Rounds of any ruleset: the kind of a round is the ruleset's word (orders, resource,
-- mission, maneuvers...), no longer a fixed list. SQLite cannot drop a CHECK in place, so
-- the table is rebuilt (the runner turns foreign keys off around it and checks them after).
CREATE TABLE rounds_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id         INTEGER NOT NULL REFERENCES campaigns (id),
    branch              INTEGER NOT NULL,
    turn                INTEGER NOT NULL,
    kind                TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    status              TEXT    NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'resolving', 'resolved', 'void')),
    opened_at           INTEGER NOT NULL,
    deadline_at         INTEGER,
    resolved_at         INTEGER,
    message_id          INTEGER,
    snapshot_before_id  INTEGER NOT NULL REFERENCES snapshots (id),
    snapshot_after_id   INTEGER REFERENCES snapshots (id)
);
INSERT INTO rounds_new (id, campaign_id, branch, turn, kind, status, opened_at, deadline_at,
                        resolved_at, message_id, snapshot_before_id, snapshot_after_id)
    SELECT id, campaign_id, branch, turn, kind, status, opened_at, deadline_at,
           resolved_at, message_id, snapshot_before_id, snapshot_after_id
    FROM rounds;
DROP TABLE rounds;
ALTER TABLE rounds_new RENAME TO rounds;
CREATE UNIQUE INDEX rounds_one_live ON rounds (campaign_id)
    WHERE status IN ('open', 'resolving');
CREATE INDEX rounds_by_campaign ON rounds (campaign_id, id);
-- The scheduler looks for resolving rounds on every tick.
CREATE INDEX rounds_by_status ON rounds (status);
