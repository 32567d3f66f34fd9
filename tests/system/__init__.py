"""Whole processes: kills, restarts, several workers on PostgreSQL, the wheel, the bench, the command line."""
