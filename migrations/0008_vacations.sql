-- Vacations (docs/correspondence.md): days that accrue per player and, while taken, stop all their
-- correspondence clocks. A player's balance as of an instant (no row: the days a new account
-- starts with, as of its creation); while on vacation, nothing left as of its planned end.
CREATE TABLE vacation_balances (
  user_id  INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  left_ms  INTEGER NOT NULL,
  as_of_ms INTEGER NOT NULL   -- Unix ms
) STRICT;

-- Each vacation taken: from its start to its planned end, or to when it was ended early.
CREATE TABLE vacations (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  from_ms INTEGER NOT NULL,
  to_ms   INTEGER NOT NULL,
  PRIMARY KEY (user_id, from_ms)
) STRICT;
