-- Correspondence play (docs/correspondence.md): each player's time zone, in which their weekends
-- fall (an IANA name such as Europe/Amsterdam, as the server's time zone database knows it).
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
