-- 0005: linear storage (issue 13). Until now every snapshot held the whole state with its
-- history, so each round stored every earlier turn again and the file grew with the square
-- of the turns. From here a snapshot holds the current state only and the history lives in
-- append-only rows, one per record, written in the snapshot's transaction.
--
-- A branch's rows are its whole lineage: a rollback copies the rows its start snapshot
-- needs into the new branch, so a voided branch's later records never reach it. A snapshot
-- names how many records its state has (history_len); rebuilding a state reads the rows of
-- its branch below that number.
CREATE TABLE history (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    branch       INTEGER NOT NULL,
    seq          INTEGER NOT NULL,      -- the record's index in the state's history, from 0
    record       TEXT    NOT NULL,      -- the ruleset's record JSON, opaque here
    PRIMARY KEY (campaign_id, branch, seq)
);

ALTER TABLE snapshots ADD COLUMN history_len INTEGER NOT NULL DEFAULT 0;

-- Moving the history out of the existing snapshots. Every ruleset up to this release kept
-- it as a JSON array: the wings ruleset under "campaign.history", the others under
-- "history". Within a branch each snapshot's history extends the previous one, so the
-- records of all its snapshots agree index by index and one row per index is kept.
INSERT OR IGNORE INTO history (campaign_id, branch, seq, record)
    SELECT s.campaign_id, s.branch, CAST(h.key AS INTEGER), h.value
    FROM snapshots AS s
    JOIN campaigns AS c ON c.id = s.campaign_id,
         json_each(s.state, CASE c.ruleset WHEN 'wings' THEN '$.campaign.history'
                                           ELSE '$.history' END) AS h;

UPDATE snapshots
SET history_len = json_array_length(state, path),
    state = json_remove(state, path)
FROM (SELECT s.id AS sid,
             CASE c.ruleset WHEN 'wings' THEN '$.campaign.history' ELSE '$.history' END AS path
      FROM snapshots AS s JOIN campaigns AS c ON c.id = s.campaign_id) AS p
WHERE p.sid = snapshots.id AND json_type(snapshots.state, p.path) = 'array';
