-- Challenges, games and every event of every game, as ../0002_games.sql (SQLite). The server
-- numbers challenges and games itself.
CREATE TABLE challenges (
  id            BIGINT PRIMARY KEY,
  challenger_id BIGINT NOT NULL REFERENCES users(id),
  opponent_id   BIGINT REFERENCES users(id),       -- a direct challenge, else open to all
  settings      TEXT   NOT NULL,                   -- JSON, as in create_challenge
  created_at    BIGINT NOT NULL,                   -- Unix milliseconds
  closed_at     BIGINT,
  closed_reason TEXT CHECK (closed_reason IN ('accepted', 'cancelled', 'declined')),
  game_id       BIGINT,                            -- the game an accepted challenge started
  cid           TEXT   NOT NULL                    -- the command that opened it (idempotency)
);
CREATE INDEX challenges_open ON challenges(id) WHERE closed_at IS NULL;

CREATE TABLE games (
  id            BIGINT PRIMARY KEY,
  challenge_id  BIGINT REFERENCES challenges(id),
  settings      TEXT   NOT NULL,
  first_id      BIGINT NOT NULL REFERENCES users(id),
  second_id     BIGINT NOT NULL REFERENCES users(id),
  black_id      BIGINT NOT NULL REFERENCES users(id),
  white_id      BIGINT NOT NULL REFERENCES users(id),
  nigiri_secret TEXT,
  nigiri_nonce  TEXT,
  created_at    BIGINT NOT NULL,
  ended_at      BIGINT,
  result        TEXT,
  end_reason    TEXT,
  move_count    INTEGER NOT NULL DEFAULT 0,
  sgf           TEXT
);
CREATE INDEX games_unfinished ON games(id) WHERE ended_at IS NULL;
CREATE INDEX games_finished ON games(id) WHERE ended_at IS NOT NULL;
CREATE INDEX games_by_black ON games(black_id, id);
CREATE INDEX games_by_white ON games(white_id, id);

-- `id` orders events across games as SQLite's rowid does (the newest commands of each user).
CREATE TABLE game_events (
  id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  game_id         BIGINT  NOT NULL REFERENCES games(id),
  seq             BIGINT  NOT NULL,
  kind            TEXT    NOT NULL,
  spectators_only BOOLEAN NOT NULL DEFAULT false,
  record          TEXT,
  text            TEXT    NOT NULL,
  at              BIGINT  NOT NULL,
  user_id         BIGINT,
  cid             TEXT,
  UNIQUE (game_id, seq)
);
CREATE INDEX game_events_by_command ON game_events(user_id) WHERE cid IS NOT NULL;
