"""The web pages: aiohttp served, read as HTML and in the system's Chromium."""
