"""The ports the application needs filled: a chat platform (chat.py), storage (store.py), a clock,
platform health.
"""
