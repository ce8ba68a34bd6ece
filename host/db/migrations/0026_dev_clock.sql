-- 0026_dev_clock: the virtual clock's time, kept across a restart (dev mode; host/db/dev-clock.ts).
-- The PostgreSQL twin is migrations-pg/0026. One row, id 1.
CREATE TABLE dev_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  now_ms INTEGER NOT NULL
);
