-- Running a public instance (docs/moderation.md): administrators, suspensions and bans, invite
-- codes, reports from players, blocks between players, the audit log of every administrative
-- action, and the registrations of the last day per address (for the daily limit).
ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));
ALTER TABLE users ADD COLUMN banned INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1));
ALTER TABLE users ADD COLUMN suspended_until INTEGER;      -- Unix ms; NULL when not suspended
ALTER TABLE users ADD COLUMN moderation_reason TEXT NOT NULL DEFAULT '';  -- shown to the user
ALTER TABLE users ADD COLUMN invite_id INTEGER;            -- the invite it registered with

CREATE TABLE invites (
  id         INTEGER PRIMARY KEY,
  code       TEXT    NOT NULL UNIQUE,
  created_by INTEGER,                 -- the administrator
  created_at INTEGER NOT NULL,
  note       TEXT    NOT NULL DEFAULT '',   -- whom it is for ("Tuesday club")
  max_uses   INTEGER NOT NULL,
  uses       INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER,                 -- NULL: never
  revoked    INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
) STRICT;

CREATE TABLE audit_log (
  id             INTEGER PRIMARY KEY,
  at             INTEGER NOT NULL,
  actor_id       INTEGER REFERENCES users(id),  -- NULL: the command line
  action         TEXT    NOT NULL,
  target_user_id INTEGER REFERENCES users(id),
  target_game_id INTEGER,
  reason         TEXT    NOT NULL DEFAULT '',
  detail         TEXT    NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE reports (
  id          INTEGER PRIMARY KEY,
  at          INTEGER NOT NULL,
  reporter_id INTEGER NOT NULL REFERENCES users(id),
  target_id   INTEGER NOT NULL REFERENCES users(id),
  category    TEXT    NOT NULL,
  text        TEXT    NOT NULL DEFAULT '',
  game_id     INTEGER,
  chat_seq    INTEGER,
  chat_text   TEXT,                   -- the chat line as it was when reported
  status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  handled_by  INTEGER REFERENCES users(id),
  handled_at  INTEGER,
  note        TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX reports_by_status ON reports(status, id);
CREATE INDEX reports_by_reporter ON reports(reporter_id, status);

CREATE TABLE blocks (
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  blocked_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  at         INTEGER NOT NULL,
  PRIMARY KEY (user_id, blocked_id)
) STRICT;

-- Kept one day: SHA-256 of the address, for --registrations-per-address.
CREATE TABLE registrations (
  address_hash BLOB    NOT NULL,
  at           INTEGER NOT NULL
) STRICT;
CREATE INDEX registrations_by_address ON registrations(address_hash, at);
