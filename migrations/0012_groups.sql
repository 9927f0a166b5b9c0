-- Groups (clubs; docs/groups.md): a page, members with roles and a chat. A group's name is unique
-- whatever its case (name_key is its lower-case form). A closed group is read only; a deleted one
-- is gone with its members and chat.
CREATE TABLE player_groups (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL,
  name_key    TEXT    NOT NULL UNIQUE,
  description TEXT    NOT NULL DEFAULT '',
  joining     TEXT    NOT NULL CHECK (joining IN ('open', 'request', 'invite')),
  invite_hash TEXT,                     -- SHA-256 of the invitation link's secret, if there is one
  owner_id    INTEGER NOT NULL REFERENCES users(id),
  created_at  INTEGER NOT NULL,
  closed_at   INTEGER
) STRICT;
CREATE INDEX groups_by_owner ON player_groups(owner_id);

-- Who belongs: the owner, administrators, members; those who asked to join (pending) and those
-- the group's administrators turned out (banned: they cannot join again).
CREATE TABLE group_members (
  group_id INTEGER NOT NULL REFERENCES player_groups(id) ON DELETE CASCADE,
  user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role     TEXT    NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'pending', 'banned')),
  since    INTEGER NOT NULL,
  PRIMARY KEY (group_id, user_id)
) STRICT;
CREATE INDEX group_members_by_user ON group_members(user_id);

-- The group's chat: the latest lines are kept (docs/limits.md); a deleted line keeps its place.
CREATE TABLE group_chat (
  id         INTEGER PRIMARY KEY,
  group_id   INTEGER NOT NULL REFERENCES player_groups(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  at         INTEGER NOT NULL,
  text       TEXT    NOT NULL,
  deleted_by INTEGER REFERENCES users(id) ON DELETE SET NULL
) STRICT;
CREATE INDEX group_chat_by_group ON group_chat(group_id, id);

-- A report may be of a line of a group's chat (docs/moderation.md): the group it was said in.
ALTER TABLE reports ADD COLUMN group_id INTEGER REFERENCES player_groups(id) ON DELETE SET NULL;

-- A group's ladders (docs/groups.md, "Ladders"): players ordered by rung (1 is the top); a player
-- challenges one a few rungs above; the challenged accepts within some days or loses the rung.
CREATE TABLE ladders (
  id          INTEGER PRIMARY KEY,
  group_id    INTEGER NOT NULL REFERENCES player_groups(id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  settings    TEXT    NOT NULL,          -- its games' settings, JSON as in create_challenge
  reach       INTEGER NOT NULL,          -- rungs up a player may challenge
  accept_days INTEGER NOT NULL,          -- days the challenged have to accept
  on_win      TEXT    NOT NULL CHECK (on_win IN ('swap', 'move_up')),
  created_at  INTEGER NOT NULL,
  closed_at   INTEGER
) STRICT;
CREATE INDEX ladders_by_group ON ladders(group_id);

CREATE TABLE ladder_players (
  ladder_id INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rung      INTEGER NOT NULL,
  away      INTEGER NOT NULL DEFAULT 0,  -- on vacation from the ladder: their rung frozen
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (ladder_id, user_id)
) STRICT;

-- open: waiting for the challenged to accept until `deadline`; playing: its game in play; then
-- won or lost (by the challenger), drawn, expired (not accepted in time: the challenger wins the
-- rung), cancelled.
CREATE TABLE ladder_challenges (
  id            INTEGER PRIMARY KEY,
  ladder_id     INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
  challenger_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  defender_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  deadline      INTEGER NOT NULL,
  state         TEXT    NOT NULL CHECK (state IN ('open', 'playing', 'won', 'lost', 'drawn',
                                                  'expired', 'cancelled')),
  -- Not a foreign key: the lobby starts the game and its row is written by the journal a moment
  -- after the challenge records it.
  game_id       INTEGER,
  resolved_at   INTEGER
) STRICT;
CREATE INDEX ladder_challenges_by_ladder ON ladder_challenges(ladder_id, id);
CREATE INDEX ladder_challenges_unresolved ON ladder_challenges(state) WHERE state IN ('open', 'playing');

-- What happened on the ladder, newest last: its standings' history.
CREATE TABLE ladder_events (
  id        INTEGER PRIMARY KEY,
  ladder_id INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
  at        INTEGER NOT NULL,
  event     TEXT    NOT NULL            -- JSON: {"kind", "user", "other", "rung", "game"}
) STRICT;
CREATE INDEX ladder_events_by_ladder ON ladder_events(ladder_id, id);
