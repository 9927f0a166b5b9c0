-- Tournaments, as ../0004_tournaments.sql (SQLite).
CREATE TABLE tournaments (
  id          BIGINT PRIMARY KEY,
  name        TEXT   NOT NULL,
  director_id BIGINT NOT NULL REFERENCES users(id),
  settings    TEXT   NOT NULL,
  created_at  BIGINT NOT NULL,
  status      TEXT   NOT NULL DEFAULT 'registering'
              CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
  cid         TEXT   NOT NULL
);

CREATE TABLE tournament_events (
  tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
  seq           BIGINT NOT NULL,
  kind          TEXT   NOT NULL,
  record        TEXT   NOT NULL,
  by_user       BIGINT REFERENCES users(id),
  cid           TEXT,
  at            BIGINT NOT NULL,
  UNIQUE (tournament_id, seq)
);
