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
