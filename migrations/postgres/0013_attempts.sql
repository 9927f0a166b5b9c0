-- Login and registration attempts counted across every node of a cluster (docs/limits.md,
-- docs/cluster.md). PostgreSQL only, like 0005_nodes.sql and 0011_survival.sql: one server on a
-- SQLite file counts them in its memory.
--
-- A token bucket per key (an address or a user name, hashed as registrations' addresses are):
-- `tokens` left at `at`, by PostgreSQL's clock, the one every node shares. A row whose bucket
-- has long been full again is deleted by the node that next takes from a bucket after a while.
CREATE TABLE attempt_buckets (
  key    BYTEA            PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at     TIMESTAMPTZ      NOT NULL
);
