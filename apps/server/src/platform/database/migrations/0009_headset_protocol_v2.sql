-- Headset protocol v2 (docs/headset-protocol.md): results survive a lost network.

-- A report's Idempotency-Key, scoped to the headset, with a hash of the request it came with and
-- the first answer, written in the report's transaction: a retry gets that answer again, the key
-- with another request is refused. Kept at least LATE_RESULT_WINDOW_MS (the sweeper purges after).
CREATE TABLE headset_idempotency_keys (
  device_id uuid NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  key uuid NOT NULL,
  request_hash text NOT NULL,
  status integer NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, key)
);
CREATE INDEX headset_idempotency_keys_created_idx ON headset_idempotency_keys (created_at);

ALTER TABLE sessions
  -- The highest progress seq applied: an older or repeated one changes nothing.
  ADD COLUMN progress_seq integer,
  -- The finish arrived after the server had ended the session, which it had ended as this.
  ADD COLUMN late_result boolean NOT NULL DEFAULT false,
  ADD COLUMN ended_by_server_as text
    CHECK (ended_by_server_as = ANY (ARRAY['disconnected', 'timeout'])),
  -- The finish's occurred_at as the headset sent it (ended_at holds it clamped).
  ADD COLUMN finish_occurred_at timestamptz;

ALTER TABLE session_tasks
  -- When the task ended by the headset's clock, as it sent it, and clamped to
  -- [started_at, arrival]: the timeline is ordered by the clamped one.
  ADD COLUMN occurred_at_reported timestamptz,
  ADD COLUMN occurred_at timestamptz;

-- How many reports the headset said it still holds, at its last heartbeat.
ALTER TABLE devices ADD COLUMN pending_reports integer NOT NULL DEFAULT 0;
