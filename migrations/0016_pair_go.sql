-- Pair Go and rengo (docs/events.md, "Pair Go"): a host announces a game of two teams, players
-- join a team until both are full, and the host starts the one game, each colour's members
-- moving in turn.
CREATE TABLE pair_games (
  id          INTEGER PRIMARY KEY,
  host_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  settings    TEXT    NOT NULL,          -- the game's settings, JSON as in create_challenge
  team_size   INTEGER NOT NULL,          -- 2 for pair Go, 3 or 4 for rengo
  -- open: players join; playing: its game started (finished once it has ended); cancelled by
  -- the host before the start.
  state       TEXT    NOT NULL CHECK (state IN ('open', 'playing', 'cancelled')),
  -- Not a foreign key: the lobby starts the game and its row is written by the journal a moment
  -- after this one records it.
  game_id     INTEGER,
  created_at  INTEGER NOT NULL,
  started_at  INTEGER
) STRICT;
CREATE INDEX pair_games_by_state ON pair_games(state, id);
CREATE INDEX pair_games_by_host ON pair_games(host_id, id);

CREATE TABLE pair_players (
  pair_id   INTEGER NOT NULL REFERENCES pair_games(id) ON DELETE CASCADE,
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  team      TEXT    NOT NULL CHECK (team IN ('black', 'white')),
  joined_at INTEGER NOT NULL,            -- a team plays in the order its members joined
  PRIMARY KEY (pair_id, user_id)
) STRICT;
CREATE INDEX pair_players_by_user ON pair_players(user_id);
