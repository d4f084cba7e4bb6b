-- 0009 (issue 29): a turn's rounds and events found by the turn. A resolution's reveal and
-- the turn's summary read one turn's rounds, and the summary that turn's events; through
-- rounds_by_campaign and events_by_campaign they went over every round (with its sealed
-- events) and every event the campaign had, a cost that grew with every round played.
CREATE INDEX rounds_by_turn ON rounds (campaign_id, branch, turn, id);
CREATE INDEX events_by_turn ON events (campaign_id, turn, seq);
