-- Simultaneous games (docs/events.md, "Simuls"): a host announces a simul, players join until the
-- host starts it, and then the host plays one game against each of them at once.
CREATE TABLE simuls (
  id          INTEGER PRIMARY KEY,
  host_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  settings    TEXT    NOT NULL,          -- its games' settings, JSON as in create_challenge
  boards      INTEGER NOT NULL,          -- at most this many players
  -- open: players join; playing: its games started (finished once every game has ended);
  -- cancelled by the host before the start.
  state       TEXT    NOT NULL CHECK (state IN ('open', 'playing', 'cancelled')),
  created_at  INTEGER NOT NULL,
  started_at  INTEGER
) STRICT;
CREATE INDEX simuls_by_state ON simuls(state, id);
CREATE INDEX simuls_by_host ON simuls(host_id, id);

CREATE TABLE simul_players (
  simul_id  INTEGER NOT NULL REFERENCES simuls(id) ON DELETE CASCADE,
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  joined_at INTEGER NOT NULL,
  -- Not a foreign key: the lobby starts the game and its row is written by the journal a moment
  -- after the simul records it.
  game_id   INTEGER,
  handicap  INTEGER NOT NULL DEFAULT 0,   -- the stones the player got at the start
  PRIMARY KEY (simul_id, user_id)
) STRICT;
CREATE INDEX simul_players_by_user ON simul_players(user_id);
