-- 0009 (as db/migrations/0009_rounds_by_turn.sql explains): a turn's rounds and events
-- found by the turn, not among every round and event the campaign has.
CREATE INDEX rounds_by_turn ON rounds (campaign_id, branch, turn, id);
CREATE INDEX events_by_turn ON events (campaign_id, turn, seq);
