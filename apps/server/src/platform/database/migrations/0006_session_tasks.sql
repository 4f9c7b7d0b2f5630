-- What a headset tells of each task of a session (task-level progress): one row per task number,
-- replaced when the headset reports the same task again. Goes with its session.
CREATE TABLE session_tasks (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  number integer NOT NULL CHECK (number >= 1),
  key text,
  name text,
  result text NOT NULL CHECK (result IN ('passed', 'failed', 'skipped')),
  score double precision CHECK (score BETWEEN 0 AND 100),
  duration_ms integer CHECK (duration_ms >= 0),
  reported_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, number)
);
