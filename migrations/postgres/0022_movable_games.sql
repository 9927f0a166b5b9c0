-- Games on every node (docs/cluster.md): whether a game may be played on any node, and so be
-- handed to any running node when its own dies or stops (a live challenge's game or a quick
-- match's), or must stay on the hub (a tournament's, a ladder's, a simul's, pair Go, a
-- correspondence game, and every game stored before this column). A cluster's own, as
-- 0005_nodes.sql.
ALTER TABLE game_leases ADD COLUMN movable BOOLEAN NOT NULL DEFAULT false;
