-- Several nodes over one database (docs/cluster.md). PostgreSQL only: a SQLite file has one
-- server, which owns every game.
--
-- A node is alive while its row has not expired; it renews it every few seconds. Each game is
-- owned by one node under an epoch that grows whenever another node takes it over (because its
-- owner's liveness ran out). Every transaction that writes a game's rows first calls
-- fence_game(game, epoch) with the epoch its writer owns it under: a stale owner (paused past its
-- expiry while another took the game) fails there and writes nothing. The lease row stays locked
-- (FOR SHARE) until that transaction ends, so a takeover waits for it or comes before it.
CREATE TABLE nodes (
  id         BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       TEXT        NOT NULL,                 -- --node, the host name by default
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL                  -- by PostgreSQL's clock, the only one trusted
);
CREATE INDEX nodes_by_name ON nodes(name);

CREATE TABLE game_leases (
  game_id  BIGINT      PRIMARY KEY REFERENCES games(id),
  node_id  BIGINT      NOT NULL REFERENCES nodes(id),
  epoch    BIGINT      NOT NULL,                   -- 1 for the node that created the game
  taken_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX game_leases_by_node ON game_leases(node_id);

CREATE FUNCTION fence_game(game BIGINT, expected BIGINT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  current BIGINT;
BEGIN
  SELECT epoch INTO current FROM game_leases WHERE game_id = game FOR SHARE;
  IF current IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'game % is owned under epoch %, not %: another node took it over',
      game, coalesce(current::text, 'none'), expected
      USING ERRCODE = 'TG001';
  END IF;
END
$$;
