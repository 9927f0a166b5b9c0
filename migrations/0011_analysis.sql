-- Analysis after the game (docs/analysis.md). The workers: programs a club runs next to an engine
-- (`tengen-analysis`), each with a key an administrator issued; only the key's SHA-256 is kept.
CREATE TABLE analysis_workers (
  id           INTEGER PRIMARY KEY,
  name         TEXT    NOT NULL UNIQUE,
  key_hash     TEXT    NOT NULL UNIQUE,
  created_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  last_seen_at INTEGER
) STRICT;

-- One analysis per finished game: asked for once, kept once. A job waits (queued), is claimed by
-- a worker until `claimed_until` (running; claimed again by another once that has passed), and
-- ends done (its result, validated, as the server wrote it) or failed (its reason).
CREATE TABLE analysis_jobs (
  game_id       INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
  requested_by  INTEGER REFERENCES users(id) ON DELETE SET NULL,
  requested_at  INTEGER NOT NULL,
  state         TEXT    NOT NULL DEFAULT 'queued',  -- queued, running, done, failed
  worker_id     INTEGER REFERENCES analysis_workers(id) ON DELETE SET NULL,
  claimed_until INTEGER NOT NULL DEFAULT 0,
  attempts      INTEGER NOT NULL DEFAULT 0,
  moves_done    INTEGER NOT NULL DEFAULT 0,
  moves_total   INTEGER NOT NULL DEFAULT 0,
  engine        TEXT    NOT NULL DEFAULT '',
  result        TEXT    NOT NULL DEFAULT '',
  error         TEXT    NOT NULL DEFAULT '',
  finished_at   INTEGER
) STRICT;
CREATE INDEX analysis_jobs_waiting ON analysis_jobs(requested_at, game_id)
  WHERE state IN ('queued', 'running');
CREATE INDEX analysis_jobs_by_requester ON analysis_jobs(requested_by, requested_at);

-- With --analyse-every-game (docs/analysis.md) the server queues the games that ended lately.
CREATE INDEX games_by_end ON games(ended_at) WHERE ended_at IS NOT NULL;
