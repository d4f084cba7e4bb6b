-- 0004 (PostgreSQL): mirrors the SQLite 0004: who may create campaigns on a server.
ALTER TABLE guild_settings ADD COLUMN creators TEXT NOT NULL DEFAULT 'gm'
    CHECK (creators IN ('gm', 'everyone'));
