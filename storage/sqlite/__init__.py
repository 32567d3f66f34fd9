"""The SQLite store: one file, WAL, group commit, migrations."""
