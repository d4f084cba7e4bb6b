"""Discord glue: parse the interaction, check permissions, call one service, render, respond.

Belongs here: slash commands, persistent views and their custom ids, permission checks.
Does not belong here: rules, SQL, or anything a test could exercise without Discord.
"""
