"""Discord: discord.py against the fake Discord (REST and gateway)."""
