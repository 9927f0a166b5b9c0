-- Web Push (docs/web-client.md, "Push"). The server's own keys, made at first start (its VAPID
-- key, RFC 8292): the first server to write one keeps it, and every node reads the same.
CREATE TABLE server_keys (
  name       TEXT    PRIMARY KEY,
  value      TEXT    NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- A device's push subscription (the browser's PushSubscription): where its push service takes
-- messages for it, its keys (base64url), and what its player wants to be told on it.
CREATE TABLE push_subscriptions (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint    TEXT    NOT NULL UNIQUE,
  p256dh      TEXT    NOT NULL,
  auth        TEXT    NOT NULL,
  your_move   INTEGER NOT NULL DEFAULT 1,
  game_start  INTEGER NOT NULL DEFAULT 1,
  round_start INTEGER NOT NULL DEFAULT 1,
  opponent_back INTEGER NOT NULL DEFAULT 1,
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id, created_at);

-- The outgoing queue, as mail's: a message is written here and sent later by the server's pusher,
-- never in a request's path; it survives restarts. Sent and abandoned ones are pruned later.
CREATE TABLE push_queue (
  id              INTEGER PRIMARY KEY,
  subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  kind            TEXT    NOT NULL,            -- your_move, game_start, round_start, opponent_back, test
  payload         TEXT    NOT NULL,            -- JSON, encrypted only when sent
  topic           TEXT    NOT NULL DEFAULT '', -- a newer message of the same topic replaces it
  urgency         TEXT    NOT NULL DEFAULT 'normal',
  ttl_s           INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  due_at          INTEGER NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  claimed_until   INTEGER NOT NULL DEFAULT 0,
  sent_at         INTEGER,
  failed_at       INTEGER,
  last_error      TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX push_queue_due ON push_queue(due_at) WHERE sent_at IS NULL AND failed_at IS NULL;
