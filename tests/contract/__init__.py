"""The Store contract on both stores (real SQLite files, a throwaway PostgreSQL), and what is each store's own."""
