"""The engine and the commands on a real SQLite file, with a recording chat adapter and a fake clock."""
