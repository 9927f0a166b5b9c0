-- Ratings (docs/ratings.md): each player's Glicko-2 rating as of their last rated game, and its history,
-- one row per player per rated game. A user with no row has the newcomer's 1500 / 350 / 0.06.
-- The deviation's growth with inactivity is computed when read, from updated_at.
CREATE TABLE ratings (
  user_id     INTEGER PRIMARY KEY REFERENCES users(id),
  rating      REAL    NOT NULL,
  deviation   REAL    NOT NULL,
  volatility  REAL    NOT NULL,
  games       INTEGER NOT NULL,                  -- rated games played
  updated_at  INTEGER NOT NULL                   -- Unix milliseconds of the last rated game
) STRICT;

CREATE TABLE rating_history (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  game_id     INTEGER NOT NULL REFERENCES games(id),
  at          INTEGER NOT NULL,
  rating      REAL    NOT NULL,                  -- after the game
  deviation   REAL    NOT NULL,
  volatility  REAL    NOT NULL,
  UNIQUE (user_id, game_id)
) STRICT;
CREATE INDEX rating_history_by_user ON rating_history(user_id, id);
