-- A review board's position analysed when someone asks (docs/analysis.md, "In a review board"):
-- the line from the board's start to the position as an SGF record; a worker analyses its last
-- position only (`from_move`, the line's moves). Queued, claimed, done or failed as a game's
-- analysis is; the same position of the same board asked for again is answered from here.
CREATE TABLE position_analyses (
  id            INTEGER PRIMARY KEY,
  review_id     INTEGER NOT NULL REFERENCES reviews(id),
  node          INTEGER NOT NULL,
  requested_by  INTEGER REFERENCES users(id) ON DELETE SET NULL,
  requested_at  INTEGER NOT NULL,
  sgf           TEXT    NOT NULL,
  from_move     INTEGER NOT NULL,
  state         TEXT    NOT NULL DEFAULT 'queued',  -- queued, running, done, failed
  worker_id     INTEGER REFERENCES analysis_workers(id) ON DELETE SET NULL,
  claimed_until INTEGER NOT NULL DEFAULT 0,
  attempts      INTEGER NOT NULL DEFAULT 0,
  engine        TEXT    NOT NULL DEFAULT '',
  result        TEXT    NOT NULL DEFAULT '',
  error         TEXT    NOT NULL DEFAULT '',
  finished_at   INTEGER
) STRICT;
CREATE INDEX position_analyses_waiting ON position_analyses(requested_at, id)
  WHERE state IN ('queued', 'running');
CREATE INDEX position_analyses_by_requester ON position_analyses(requested_by, requested_at);
CREATE INDEX position_analyses_by_node ON position_analyses(review_id, node);
