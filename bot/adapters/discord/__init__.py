"""Discord through discord.py 2: slash commands and persistent buttons in, embeds out."""
