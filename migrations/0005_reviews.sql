-- Review and demonstration boards (docs/reviews.md). A review starts from an SGF game tree (a
-- finished game's record, an uploaded file, or an empty board) and is rebuilt on start by
-- replaying its events, as a game is: each move, mark, comment, deletion, change of the node shown
-- and handing over of control. Closing it stores the whole tree as SGF and stops its replay.
CREATE TABLE reviews (
  id         INTEGER PRIMARY KEY,
  owner_id   INTEGER NOT NULL REFERENCES users(id),
  title      TEXT    NOT NULL,
  game_id    INTEGER REFERENCES games(id),       -- the game it reviews, if made from one
  sgf        TEXT    NOT NULL,                   -- the tree it started from
  created_at INTEGER NOT NULL,                   -- Unix milliseconds
  closed_at  INTEGER,                            -- NULL while it is open
  final_sgf  TEXT                                -- the whole tree when it was closed
) STRICT;

CREATE TABLE review_events (
  review_id INTEGER NOT NULL REFERENCES reviews(id),
  seq       INTEGER NOT NULL,
  kind      TEXT    NOT NULL,                    -- play, goto, mark, comment, delete, control
  record    TEXT    NOT NULL,                    -- JSON, read back by the server's replay
  by_user   INTEGER REFERENCES users(id),
  at        INTEGER NOT NULL,
  UNIQUE (review_id, seq)
) STRICT;

CREATE INDEX reviews_open ON reviews(id) WHERE closed_at IS NULL;
