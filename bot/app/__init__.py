"""Wiring: settings -> catalog, store, engine, commands and adapters; logging; the command-line tools'
set-up.
"""
