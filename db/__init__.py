"""Persistence: SQLite (sqlite3: one writer, WAL readers) or PostgreSQL (asyncpg), numbered
migrations in each dialect, one repository interface (``db.repository``) chosen by
``db.backend``, its transaction's statements written once for both (``db.sql``).

Belongs here: SQL, migrations, transactions, the append-only event log, snapshots, the
outbox and deadline rows. Does not belong here: rules, Discord, or decisions about what a
state change means (that is ``bot``'s services).
"""
