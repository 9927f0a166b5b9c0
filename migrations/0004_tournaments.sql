-- Tournaments (docs/tournaments.md). A tournament's state is rebuilt on start by replaying its events, as a
-- game's is: registrations, the seeding, each round's pairings, the games they started, results,
-- withdrawals and every director action. `by_user` names who caused an event (NULL: the server
-- on its own, e.g. a round that starts on time), so the events are also the audit log.
CREATE TABLE tournaments (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL,
  director_id INTEGER NOT NULL REFERENCES users(id),
  settings    TEXT    NOT NULL,                  -- JSON, as in create_tournament
  created_at  INTEGER NOT NULL,                  -- Unix milliseconds
  status      TEXT    NOT NULL DEFAULT 'registering'
              CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
  cid         TEXT    NOT NULL                   -- the command that created it (idempotency)
) STRICT;

CREATE TABLE tournament_events (
  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
  seq           INTEGER NOT NULL,
  kind          TEXT    NOT NULL,                -- registered, started, paired, round_started, ...
  record        TEXT    NOT NULL,                -- JSON, read back by the server's replay
  by_user       INTEGER REFERENCES users(id),
  cid           TEXT,                            -- the command of by_user that made it, if any
  at            INTEGER NOT NULL,
  UNIQUE (tournament_id, seq)
) STRICT;
