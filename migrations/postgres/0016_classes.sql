-- Classes (schools; docs/classes.md), as ../0013_classes.sql (SQLite) in PostgreSQL's dialect.
CREATE TABLE teachers (
  user_id    BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  granted_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  at         BIGINT NOT NULL
);

CREATE TABLE classes (
  group_id    BIGINT PRIMARY KEY REFERENCES player_groups(id) ON DELETE CASCADE,
  protected   BIGINT NOT NULL DEFAULT 1 CHECK (protected IN (0, 1)),
  created_at  BIGINT NOT NULL,
  archived_at BIGINT
);

CREATE TABLE class_students (
  user_id  BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  class_id BIGINT NOT NULL REFERENCES classes(group_id) ON DELETE CASCADE,
  name     TEXT   NOT NULL
);
CREATE INDEX class_students_by_class ON class_students(class_id);

CREATE TABLE course_progress (
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  lesson  TEXT   NOT NULL,
  done_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, lesson)
);
