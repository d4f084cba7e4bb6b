-- 0002: the GM audit trail, and the indexes the scheduler, the outbox worker and /log
-- read on every tick (0001 databases get them on upgrade; rows are untouched).

CREATE TABLE audit (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER REFERENCES campaigns (id),
    guild_id     INTEGER,
    who          INTEGER NOT NULL,       -- Discord user id of the person who acted
    what         TEXT    NOT NULL,       -- action key: rollback, extend, resolve-now, kick...
    why          TEXT    NOT NULL DEFAULT '',
    data         TEXT    NOT NULL DEFAULT '{}',
    at           INTEGER NOT NULL
);

CREATE INDEX audit_by_campaign ON audit (campaign_id, id);
CREATE INDEX events_by_campaign ON events (campaign_id, seq);
CREATE INDEX events_by_round ON events (round_id);
CREATE INDEX rounds_by_campaign ON rounds (campaign_id, id);
CREATE INDEX timers_due ON timers (done, due_at);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_coalesce ON outbox (campaign_id, message_key, status);
CREATE INDEX locks_by_round ON locks (round_id);
