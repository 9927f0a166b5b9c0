-- Surviving the database's own restarts (docs/operations.md, "When the database goes away").
-- PostgreSQL only, like 0005_nodes.sql: a SQLite file is on the server's own disk.
--
-- A group commit whose connection broke while it committed has an unknown outcome. Each writer
-- (one PostgresGameStore) numbers its transactions and records the number in the same
-- transaction; after the database comes back it reads its row: the commit was done if the number
-- is there, and is sent again if not. One row per writer, replaced by each commit; rows of
-- writers gone for a day are deleted when a writer starts.
CREATE TABLE commit_marks (
  writer BIGINT      PRIMARY KEY,               -- random, per store instance
  mark   BIGINT      NOT NULL,                  -- the number of its last committed transaction
  at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A node whose liveness ran out while the database was away comes back to life when it renews,
-- unless another node ended it (a new hub ending the last one's, a node restarted under its name,
-- a single server starting): then it has lost its games and stops. ended_at says which.
ALTER TABLE nodes ADD COLUMN ended_at TIMESTAMPTZ;
