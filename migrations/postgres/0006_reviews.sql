-- Review and demonstration boards, as ../0005_reviews.sql (SQLite).
CREATE TABLE reviews (
  id         BIGINT PRIMARY KEY,
  owner_id   BIGINT NOT NULL REFERENCES users(id),
  title      TEXT   NOT NULL,
  game_id    BIGINT REFERENCES games(id),
  sgf        TEXT   NOT NULL,
  created_at BIGINT NOT NULL,
  closed_at  BIGINT,
  final_sgf  TEXT
);

CREATE TABLE review_events (
  review_id BIGINT NOT NULL REFERENCES reviews(id),
  seq       BIGINT NOT NULL,
  kind      TEXT   NOT NULL,
  record    TEXT   NOT NULL,
  by_user   BIGINT REFERENCES users(id),
  at        BIGINT NOT NULL,
  UNIQUE (review_id, seq)
);

CREATE INDEX reviews_open ON reviews(id) WHERE closed_at IS NULL;
