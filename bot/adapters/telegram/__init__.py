"""Telegram through python-telegram-bot 22: commands and presses in, questions, reveals and replies out."""
