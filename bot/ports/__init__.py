"""The ports the application needs filled: a chat platform (chat.py), storage (store/: the Store,
cut into roles), a clock, platform health.
"""
