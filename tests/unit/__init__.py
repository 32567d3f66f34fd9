"""Pure rules and file formats: no event loop of the bot, no database server, no platform."""
