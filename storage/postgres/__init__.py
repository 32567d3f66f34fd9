"""The PostgreSQL store (asyncpg): the same behaviour as SQLite, for several workers on one database."""
