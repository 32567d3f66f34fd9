"""What the tests share: harnesses for the fake platforms, PostgreSQL fixtures, generated files, paths."""
