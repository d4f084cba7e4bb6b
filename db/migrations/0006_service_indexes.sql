-- 0006: an index for every query the scheduler, the outbox worker and a lock make on a
-- busy store (issue 13), so none of them reads a table that grows with the campaigns.
-- A round's timers (finished or shifted with every resolution, pause and deadline): before
-- this, found through timers_due, i.e. among every pending timer of every campaign.
CREATE INDEX timers_by_round ON timers (round_id, done);
-- The claim's "an earlier item to the same destination is leased" check, per candidate.
CREATE INDEX outbox_by_target ON outbox (target_kind, target_id, status, next_attempt_at);
-- The campaigns the bot resumes at start (by status) and a server's list.
CREATE INDEX campaigns_by_status ON campaigns (status, id);
CREATE INDEX campaigns_by_guild ON campaigns (guild_id, id);
