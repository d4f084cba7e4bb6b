-- 0008 (issue 26): the events of a round that nobody may read before the campaign ends (a
-- Wings damage card, a purchase, a flak gunner's counter), kept beside the round as one
-- JSON list. They are never in the log; the export opens them once the campaign is over,
-- and verify replays and compares them. NULL: the round kept none.
ALTER TABLE rounds ADD COLUMN sealed TEXT;
