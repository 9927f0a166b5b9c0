-- E-mail through the operator's SMTP relay (docs/mail.md). A player's address, whether its link
-- was opened, what they want to be sent, and the key of their one-click unsubscribe links.
CREATE TABLE mail_settings (
  user_id         INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  address         TEXT    NOT NULL,
  verified_at     INTEGER,                   -- Unix ms; NULL until the address's link is opened
  your_move       INTEGER NOT NULL DEFAULT 1,
  game_over       INTEGER NOT NULL DEFAULT 1,
  digest          INTEGER NOT NULL DEFAULT 0,
  unsubscribe_key TEXT    NOT NULL,
  digest_due      INTEGER NOT NULL DEFAULT 0  -- Unix ms: the next daily digest not before
) STRICT;
CREATE INDEX mail_settings_by_address ON mail_settings(lower(address));

-- Links sent by mail (an address's verification, a password reset), kept only as SHA-256.
CREATE TABLE mail_tokens (
  token_hash BLOB    PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    TEXT    NOT NULL,               -- 'verify' or 'reset'
  address    TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX mail_tokens_by_user ON mail_tokens(user_id, purpose, created_at);

-- The outgoing queue: a mail is written here and sent later, by the server's mailer, never in a
-- request's path; it survives restarts. Sent and abandoned mails are kept a while, then pruned.
CREATE TABLE mail_queue (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER REFERENCES users(id) ON DELETE CASCADE,
  kind          TEXT    NOT NULL,            -- verify, reset, your_move, game_over, digest
  recipient     TEXT    NOT NULL,
  subject       TEXT    NOT NULL,
  body          TEXT    NOT NULL,
  unsubscribe   TEXT    NOT NULL DEFAULT '', -- the one-click unsubscribe URL, if any
  created_at    INTEGER NOT NULL,
  due_at        INTEGER NOT NULL,            -- the next attempt not before
  attempts      INTEGER NOT NULL DEFAULT 0,
  claimed_until INTEGER NOT NULL DEFAULT 0,  -- a node sending it holds it until then
  sent_at       INTEGER,
  failed_at     INTEGER,                     -- given up on
  last_error    TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX mail_queue_due ON mail_queue(due_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX mail_queue_by_user ON mail_queue(user_id, created_at);

-- When each player was last told "your move" in each game: at most one a game per interval.
CREATE TABLE mail_game_notices (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  game_id INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, game_id)
) STRICT;
