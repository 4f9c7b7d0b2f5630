-- Heartbeats rewrite last_seen_at of every online device once a second (one batched UPDATE).
-- Free space in each page lets PostgreSQL update the row in place (a HOT update, no index writes,
-- since last_seen_at is not indexed), which is most of that statement's cost.
ALTER TABLE devices SET (fillfactor = 50);
