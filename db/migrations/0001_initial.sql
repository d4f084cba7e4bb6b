-- 0001: the campaign store. Times are integer UNIX seconds (UTC) from the service's clock,
-- JSON columns are TEXT. Nothing here is ever deleted by the services: rounds and events
-- of an abandoned branch are marked void, locks withdrawn by an unlock keep their row.

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    gm_role_id  INTEGER,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE campaigns (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    gm_id              INTEGER NOT NULL,
    ruleset            TEXT    NOT NULL,
    scenario           TEXT    NOT NULL,
    locale             TEXT    NOT NULL DEFAULT 'en',
    -- The seed stays in this row only; it leaves the database (export, announcements)
    -- once seed_revealed is set at the end of the campaign.
    seed               TEXT    NOT NULL,
    seed_commitment    TEXT    NOT NULL,
    seed_revealed      INTEGER NOT NULL DEFAULT 0,
    round_seconds      INTEGER NOT NULL,
    reminder_offsets   TEXT    NOT NULL DEFAULT '[]',   -- JSON list of seconds before the deadline
    missing_policy     TEXT    NOT NULL DEFAULT 'default',
    gm_sees_secrets    INTEGER NOT NULL DEFAULT 0,
    allow_unlock       INTEGER NOT NULL DEFAULT 1,
    status             TEXT    NOT NULL DEFAULT 'setup'
                       CHECK (status IN ('setup', 'active', 'paused', 'finished')),
    branch             INTEGER NOT NULL DEFAULT 1,
    snapshot_id        INTEGER,          -- the latest state (start of the open round, or final)
    round_message_id   INTEGER,          -- Discord id of the open round's message
    card_message_id    INTEGER,          -- Discord id of the campaign card
    paused_at          INTEGER,
    created_at         INTEGER NOT NULL,
    started_at         INTEGER,
    ended_at           INTEGER,
    end_reason         TEXT
);

-- One live campaign per channel: enforced here as well as in the service, so two
-- simultaneous /campaign create calls cannot both win.
CREATE UNIQUE INDEX campaigns_live_channel ON campaigns (channel_id)
    WHERE status IN ('setup', 'active', 'paused');

CREATE TABLE players (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    user_id      INTEGER NOT NULL,
    side         TEXT    NOT NULL,
    commander    INTEGER NOT NULL DEFAULT 0,
    dm_ok        INTEGER NOT NULL DEFAULT 1,
    joined_at    INTEGER NOT NULL,
    last_active  INTEGER NOT NULL,
    left_at      INTEGER,                 -- kicked or substituted; the row stays for history
    PRIMARY KEY (campaign_id, user_id)
);

CREATE TABLE snapshots (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    branch       INTEGER NOT NULL,
    turn         INTEGER NOT NULL,
    round_kind   TEXT    NOT NULL,       -- the round the state waits for (orders/resource)
    state        TEXT    NOT NULL,       -- engine State JSON, secrets included
    created_at   INTEGER NOT NULL
);

CREATE TABLE rounds (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id         INTEGER NOT NULL REFERENCES campaigns (id),
    branch              INTEGER NOT NULL,
    turn                INTEGER NOT NULL,
    kind                TEXT    NOT NULL CHECK (kind IN ('orders', 'resource')),
    status              TEXT    NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'resolving', 'resolved', 'void')),
    opened_at           INTEGER NOT NULL,
    deadline_at         INTEGER,
    resolved_at         INTEGER,
    message_id          INTEGER,
    snapshot_before_id  INTEGER NOT NULL REFERENCES snapshots (id),
    snapshot_after_id   INTEGER REFERENCES snapshots (id)
);

-- At most one round of a campaign is open or resolving at any time.
CREATE UNIQUE INDEX rounds_one_live ON rounds (campaign_id)
    WHERE status IN ('open', 'resolving');

CREATE TABLE drafts (
    round_id    INTEGER NOT NULL REFERENCES rounds (id),
    side        TEXT    NOT NULL,
    field       TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    by_user     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (round_id, side, field)
);

CREATE TABLE locks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id      INTEGER NOT NULL REFERENCES rounds (id),
    side          TEXT    NOT NULL,
    canonical     TEXT    NOT NULL,      -- canonical JSON of the side's choice
    salt          TEXT    NOT NULL,
    receipt       TEXT    NOT NULL,      -- sha256(canonical + salt), published on lock
    locked_at     INTEGER NOT NULL,
    by_user       INTEGER,               -- NULL when the deadline filled the choice
    defaulted     INTEGER NOT NULL DEFAULT 0,
    withdrawn_at  INTEGER                -- set by an unlock; the row is kept
);

-- One standing lock per side and round: the database refuses a second one even if two
-- lock-ins slipped past the service's checks.
CREATE UNIQUE INDEX locks_one_standing ON locks (round_id, side) WHERE withdrawn_at IS NULL;

CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    round_id     INTEGER REFERENCES rounds (id),
    branch       INTEGER NOT NULL,
    source       TEXT    NOT NULL CHECK (source IN ('engine', 'service')),
    kind         TEXT    NOT NULL,
    turn         INTEGER NOT NULL,
    data         TEXT    NOT NULL DEFAULT '{}',
    void         INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL
);

CREATE TABLE timers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    round_id     INTEGER NOT NULL REFERENCES rounds (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder')),
    due_at       INTEGER NOT NULL,
    offset_s     INTEGER NOT NULL DEFAULT 0,  -- reminders: seconds before the deadline
    done         INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id      INTEGER REFERENCES campaigns (id),
    kind             TEXT    NOT NULL,
    target_kind      TEXT    NOT NULL CHECK (target_kind IN ('channel', 'dm')),
    target_id        INTEGER NOT NULL,
    message_key      TEXT,               -- messages edited in place share a key
    payload          TEXT    NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    last_error       TEXT,
    delivered_id     INTEGER,            -- Discord message id returned by the sender
    delivered_at     INTEGER,
    dedupe_key       TEXT UNIQUE,
    created_at       INTEGER NOT NULL
);

-- Where a message that is edited in place (campaign card, round message) was posted.
CREATE TABLE message_refs (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    key          TEXT    NOT NULL,
    target_id    INTEGER NOT NULL,
    message_id   INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, key)
);
