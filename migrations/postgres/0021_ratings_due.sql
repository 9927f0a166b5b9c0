-- Rated games that ended on a node other than the hub (docs/cluster.md, "Games on every node");
-- the same table as SQLite's 0018_ratings_due.sql.
CREATE TABLE ratings_due (
  game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
);
