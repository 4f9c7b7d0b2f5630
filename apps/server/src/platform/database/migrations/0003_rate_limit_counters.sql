-- Attempts counted per key in one row, incremented and read back by a single upsert, so parallel
-- requests cannot all pass a check made before any of them was counted (the old table was read,
-- then written after the password was hashed).
CREATE TABLE rate_limit_counters (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  -- The window opens with the first attempt and ends here; the next attempt after it starts anew.
  window_ends_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_ends_at);

DROP TABLE rate_limit_hits;
