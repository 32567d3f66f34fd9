"""Runs of every chat: asking, timers, presses, closing, the sender of owed messages, reviews,
schedules, several workers and their wake-ups.
"""
