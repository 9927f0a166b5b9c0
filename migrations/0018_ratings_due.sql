-- Rated games that ended on a node other than the hub (docs/cluster.md, "Games on every node"):
-- the game's end and this row are written together by the node that played it; the hub rates the
-- game and deletes the row together (docs/ratings.md). A row left here is a game still to rate.
CREATE TABLE ratings_due (
  game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
);
