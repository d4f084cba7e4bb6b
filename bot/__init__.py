"""The application layer: settings, services, scheduler, outbox and the Discord client.

Belongs here: turning a player's or GM's intent into validated, persisted, exactly-once
state changes (services), the scheduler that re-arms deadlines from the database, the
outbox that delivers announcements, the ``commands.Bot`` subclass and the command line.

Does not belong here: game rules (``engine``), SQL (``db``), Pillow drawing
(``rendering``) or interaction parsing (``cogs``).
"""

__version__ = "0.1.0"
