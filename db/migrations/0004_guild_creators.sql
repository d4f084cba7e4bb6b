-- Who may create campaigns on a server: "gm" (Manage Server, administrators, the GM role)
-- or "everyone". Before this, any member could, and so became a GM able to post in the
-- channel through the bot.
ALTER TABLE guild_settings ADD COLUMN creators TEXT NOT NULL DEFAULT 'gm'
    CHECK (creators IN ('gm', 'everyone'));
