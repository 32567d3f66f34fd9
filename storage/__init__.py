"""Persistence for quizhost: the SQLite store behind the engine's storage port."""
