-- Classes (schools; docs/classes.md). A class is a group (player_groups) run by its teacher, its
-- owner; its students are accounts the teacher made for it, with no e-mail.

-- Who may make classes (besides everyone, when the server lets anyone teach).
CREATE TABLE teachers (
  user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  granted_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  at         INTEGER NOT NULL
) STRICT;

-- protected: its students play and talk only within the class (and with the house bots);
-- archived: the year is over, the class is read only.
CREATE TABLE classes (
  group_id    INTEGER PRIMARY KEY REFERENCES player_groups(id) ON DELETE CASCADE,
  protected   INTEGER NOT NULL DEFAULT 1 CHECK (protected IN (0, 1)),
  created_at  INTEGER NOT NULL,
  archived_at INTEGER
) STRICT;

-- The accounts a teacher made for a class (one class each), with the name the teacher typed.
CREATE TABLE class_students (
  user_id  INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  class_id INTEGER NOT NULL REFERENCES classes(group_id) ON DELETE CASCADE,
  name     TEXT    NOT NULL
) STRICT;
CREATE INDEX class_students_by_class ON class_students(class_id);

-- The lessons of the rules course an account has finished (any account, not only students').
CREATE TABLE course_progress (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  lesson  TEXT    NOT NULL,
  done_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, lesson)
) STRICT;
