-- Challenges, games and every event of every game (docs/persistence.md). A game's state is
-- rebuilt on start by replaying its events; `record` holds what recovery needs (JSON written and read by the room),
-- `text` the exact message clients were sent, so that a reconnecting client gets the same bytes.
CREATE TABLE challenges (
  id            INTEGER PRIMARY KEY,
  challenger_id INTEGER NOT NULL REFERENCES users(id),
  opponent_id   INTEGER REFERENCES users(id),      -- a direct challenge, else open to all
  settings      TEXT    NOT NULL,                  -- JSON, as in create_challenge
  created_at    INTEGER NOT NULL,                  -- Unix milliseconds
  closed_at     INTEGER,
  closed_reason TEXT CHECK (closed_reason IN ('accepted', 'cancelled', 'declined')),
  game_id       INTEGER,                           -- the game an accepted challenge started
  cid           TEXT    NOT NULL                   -- the command that opened it (idempotency)
) STRICT;
CREATE INDEX challenges_open ON challenges(id) WHERE closed_at IS NULL;

CREATE TABLE games (
  id            INTEGER PRIMARY KEY,
  challenge_id  INTEGER REFERENCES challenges(id),
  settings      TEXT    NOT NULL,                  -- JSON, as in create_challenge
  -- The seats when the game was created: Black and White, or with a nigiri the holder (first)
  -- and the guesser (second) before colours were drawn.
  first_id      INTEGER NOT NULL REFERENCES users(id),
  second_id     INTEGER NOT NULL REFERENCES users(id),
  black_id      INTEGER NOT NULL REFERENCES users(id),  -- updated when a nigiri draws colours
  white_id      INTEGER NOT NULL REFERENCES users(id),
  nigiri_secret TEXT,                              -- the committed secret, revealed when drawn
  nigiri_nonce  TEXT,
  created_at    INTEGER NOT NULL,
  ended_at      INTEGER,
  result        TEXT,                              -- SGF RE[] form, e.g. W+5.5, B+R, Void
  end_reason    TEXT,
  move_count    INTEGER NOT NULL DEFAULT 0,
  sgf           TEXT                               -- the final record, written when it ends
) STRICT;
CREATE INDEX games_unfinished ON games(id) WHERE ended_at IS NULL;
CREATE INDEX games_finished ON games(id) WHERE ended_at IS NOT NULL;
CREATE INDEX games_by_black ON games(black_id, id);
CREATE INDEX games_by_white ON games(white_id, id);

CREATE TABLE game_events (
  game_id         INTEGER NOT NULL REFERENCES games(id),
  seq             INTEGER NOT NULL,
  kind            TEXT    NOT NULL,                -- move, pass, undo, chat, end, ...
  spectators_only INTEGER NOT NULL DEFAULT 0 CHECK (spectators_only IN (0, 1)),
  record          TEXT,                            -- JSON for recovery; NULL when it changes no state
  text            TEXT    NOT NULL,                -- the room_event as sent
  at              INTEGER NOT NULL,                -- Unix milliseconds
  user_id         INTEGER,                         -- whose command made it, and that command's
  cid             TEXT,                            -- cid: a resent command is not applied twice
  UNIQUE (game_id, seq)
) STRICT;
CREATE INDEX game_events_by_command ON game_events(user_id) WHERE cid IS NOT NULL;
