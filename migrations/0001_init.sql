-- Accounts and their sessions (docs/games.md). Session tokens are never stored: only their SHA-256.
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  username      TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT    NOT NULL,          -- Argon2id, libsodium's crypto_pwhash_str format
  is_bot        INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
  created_at    INTEGER NOT NULL           -- Unix milliseconds
) STRICT;

CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash   BLOB    NOT NULL UNIQUE,
  user_agent   TEXT    NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_user ON sessions(user_id);
