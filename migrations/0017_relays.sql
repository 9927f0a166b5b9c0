-- Relays (docs/events.md, "Relays"): a game played over the board, entered move by move by its
-- director into a board nobody else changes, with a commentary room following it. The boards
-- are review boards (0005_reviews.sql); these rows name the game and keep each move's time.
CREATE TABLE relays (
  id                INTEGER PRIMARY KEY,
  director_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event             TEXT    NOT NULL,
  round             INTEGER NOT NULL DEFAULT 0,   -- 0: none given
  table_no          INTEGER NOT NULL DEFAULT 0,
  black             TEXT    NOT NULL,
  black_rank        TEXT    NOT NULL DEFAULT '',
  white             TEXT    NOT NULL,
  white_rank        TEXT    NOT NULL DEFAULT '',
  size              INTEGER NOT NULL,
  komi              REAL    NOT NULL,
  ruleset           TEXT    NOT NULL,
  handicap          INTEGER NOT NULL DEFAULT 0,
  delay             INTEGER NOT NULL DEFAULT 0,   -- moves the spectators' analysis stays behind
  board_review      INTEGER NOT NULL,
  commentary_review INTEGER NOT NULL,
  -- live: moves are entered; finished: the result is in (the commentary room may go on);
  -- closed: its director or an administrator ended it.
  state             TEXT    NOT NULL CHECK (state IN ('live', 'finished', 'closed')),
  result            TEXT    NOT NULL DEFAULT '',
  created_at        INTEGER NOT NULL,
  finished_at       INTEGER
) STRICT;
CREATE INDEX relays_by_state ON relays(state, id);
CREATE INDEX relays_by_director ON relays(director_id, state);

CREATE TABLE relay_moves (
  relay_id INTEGER NOT NULL REFERENCES relays(id) ON DELETE CASCADE,
  number   INTEGER NOT NULL,   -- 1 for the first move
  vertex   TEXT    NOT NULL,   -- "D4", "pass"
  node     INTEGER NOT NULL,   -- the board's node
  at       INTEGER NOT NULL,   -- when it was entered
  PRIMARY KEY (relay_id, number)
) STRICT;
