-- 0005: linear storage (issue 13), as db/migrations/0005_history_rows.sql explains: a
-- snapshot holds the current state only, its history lives in append-only rows (one per
-- record) of its branch, and history_len says how many of them the snapshot's state has.
CREATE TABLE history (
    campaign_id  BIGINT NOT NULL REFERENCES campaigns (id),
    branch       BIGINT NOT NULL,
    seq          BIGINT NOT NULL,       -- the record's index in the state's history, from 0
    record       TEXT   NOT NULL,       -- the ruleset's record JSON, opaque here
    PRIMARY KEY (campaign_id, branch, seq)
);

ALTER TABLE snapshots ADD COLUMN history_len BIGINT NOT NULL DEFAULT 0;

-- Every ruleset up to this release kept its history as a JSON array: the wings ruleset
-- under campaign.history, the others under history. Within a branch the snapshots'
-- histories extend one another, so one row per index is kept.
CREATE TEMPORARY TABLE snapshot_history AS
    SELECT s.id, s.campaign_id, s.branch,
           CASE c.ruleset WHEN 'wings' THEN '{campaign,history}'::text[]
                          ELSE '{history}'::text[] END AS path
    FROM snapshots AS s JOIN campaigns AS c ON c.id = s.campaign_id
    WHERE jsonb_typeof(s.state::jsonb #> CASE c.ruleset WHEN 'wings'
                                           THEN '{campaign,history}'::text[]
                                           ELSE '{history}'::text[] END) = 'array';

INSERT INTO history (campaign_id, branch, seq, record)
    SELECT p.campaign_id, p.branch, h.ord - 1, h.value::text
    FROM snapshot_history AS p
    JOIN snapshots AS s ON s.id = p.id,
         jsonb_array_elements(s.state::jsonb #> p.path) WITH ORDINALITY AS h (value, ord)
    ON CONFLICT DO NOTHING;

UPDATE snapshots AS s
SET history_len = jsonb_array_length(s.state::jsonb #> p.path),
    state = (s.state::jsonb #- p.path)::text
FROM snapshot_history AS p
WHERE p.id = s.id;

DROP TABLE snapshot_history;
