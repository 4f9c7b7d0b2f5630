-- Statistics read from rollups instead of scanning sessions: daily figures per organisation, per
-- scenario and per device type, and each VR user's session counts. Triggers on sessions keep them
-- exact for every statement that writes sessions, whoever runs it: the API, a bulk
-- INSERT … SELECT, an UPDATE by hand. (pg_restore creates triggers after loading data, so a
-- restore brings the rollups as they were dumped, and does not count the rows twice.)
--
-- A session counts on the UTC day it started. "Ended" is any status but active; completion and
-- duration are summed over ended sessions only, as the statistics define them (stats-sql.ts).

-- The same figures at three grains, so a read touches few rows whatever it covers: per
-- organisation and day (history totals, a tenant's statistics), per day for all organisations (the
-- global statistics: 365 rows for a year), and per organisation and month (all-time figures per
-- organisation, and the top organisations of a long range: whole months plus the days at its ends).
CREATE TABLE session_daily (
  organization_id uuid NOT NULL,
  day date NOT NULL,
  sessions integer NOT NULL DEFAULT 0,
  active integer NOT NULL DEFAULT 0,
  completed integer NOT NULL DEFAULT 0,
  cancelled integer NOT NULL DEFAULT 0,
  disconnected integer NOT NULL DEFAULT 0,
  timeout integer NOT NULL DEFAULT 0,
  successes integer NOT NULL DEFAULT 0,
  -- Sum over ended sessions of least(completed_tasks / greatest(max_tasks, 1), 1).
  completion_sum numeric NOT NULL DEFAULT 0,
  -- Ended sessions with a duration, and the sum of their durations.
  timed integer NOT NULL DEFAULT 0,
  duration_sum bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day)
);
CREATE INDEX session_daily_day_idx ON session_daily (day);

CREATE TABLE session_daily_all (LIKE session_daily INCLUDING DEFAULTS);
ALTER TABLE session_daily_all DROP COLUMN organization_id, ADD PRIMARY KEY (day);

CREATE TABLE session_monthly (LIKE session_daily INCLUDING DEFAULTS);
ALTER TABLE session_monthly RENAME COLUMN day TO month;
ALTER TABLE session_monthly ADD PRIMARY KEY (organization_id, month);
COMMENT ON COLUMN session_monthly.month IS 'the first day of the month';

-- Keyed by the scenario's id and the name the session recorded, so a deleted scenario's sessions
-- (id set to null) still group by their name; the English name recorded rides along.
CREATE TABLE session_daily_scenario (
  day date NOT NULL,
  scenario_id uuid,
  scenario_name text NOT NULL,
  scenario_name_en text,
  sessions integer NOT NULL DEFAULT 0,
  completed integer NOT NULL DEFAULT 0,
  ended integer NOT NULL DEFAULT 0,
  successes integer NOT NULL DEFAULT 0,
  completion_sum numeric NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX session_daily_scenario_key
  ON session_daily_scenario (day, scenario_id, scenario_name) NULLS NOT DISTINCT;

CREATE TABLE session_daily_device_type (
  day date NOT NULL,
  device_type text NOT NULL,
  sessions integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, device_type)
);

ALTER TABLE vr_users
  ADD COLUMN session_count integer NOT NULL DEFAULT 0,
  ADD COLUMN completed_count integer NOT NULL DEFAULT 0,
  ADD COLUMN last_session_at timestamptz;

-- The statement that adds the figures of the changed rows (`delta`, signed by `sign`) to one rollup
-- table, grouped by its key columns (a subset of organization_id, day, month). It returns the SQL
-- rather than running it: transition tables are visible to the trigger function alone.
CREATE FUNCTION sessions_rollup_figures_sql(target text, key_columns text, delta text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    INSERT INTO %1$I AS t (%2$s, sessions, active, completed, cancelled, disconnected, timeout,
      successes, completion_sum, timed, duration_sum)
    SELECT * FROM (
      SELECT %2$s, sum(sign)::int AS sessions,
        coalesce(sum(sign) FILTER (WHERE status = 'active'), 0)::int AS active,
        coalesce(sum(sign) FILTER (WHERE status = 'completed'), 0)::int AS completed,
        coalesce(sum(sign) FILTER (WHERE status = 'cancelled'), 0)::int AS cancelled,
        coalesce(sum(sign) FILTER (WHERE status = 'disconnected'), 0)::int AS disconnected,
        coalesce(sum(sign) FILTER (WHERE status = 'timeout'), 0)::int AS timeout,
        coalesce(sum(sign) FILTER (WHERE succeeded), 0)::int AS successes,
        sum(sign * completion) AS completion_sum,
        coalesce(sum(sign) FILTER (WHERE timed), 0)::int AS timed,
        sum(sign * duration)::bigint AS duration_sum
      FROM (%3$s) delta GROUP BY %2$s) g
    WHERE (sessions, active, completed, cancelled, disconnected, timeout, successes,
           completion_sum, timed, duration_sum) <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    ON CONFLICT (%2$s) DO UPDATE SET
      sessions = t.sessions + excluded.sessions,
      active = t.active + excluded.active,
      completed = t.completed + excluded.completed,
      cancelled = t.cancelled + excluded.cancelled,
      disconnected = t.disconnected + excluded.disconnected,
      timeout = t.timeout + excluded.timeout,
      successes = t.successes + excluded.successes,
      completion_sum = t.completion_sum + excluded.completion_sum,
      timed = t.timed + excluded.timed,
      duration_sum = t.duration_sum + excluded.duration_sum$q$, target, key_columns, delta)
$$;

-- Applies what one statement changed in sessions: each new row counts +1, each old row −1, so an
-- update that moves nothing a rollup holds (a progress report of an active session) writes nothing.
-- Transition tables exist only for the operation that fired, hence the SQL built per operation.
CREATE FUNCTION sessions_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
  delta text;
BEGIN
  -- Most updates are progress reports of active sessions: nothing a rollup holds moves. (Nested,
  -- so old_rows is only ever planned for an update, the one operation that has it.)
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.organization_id, n.vr_user_id, n.scenario_id, n.scenario_name, n.device_type,
             n.started_at, n.status, n.success, n.max_tasks, n.duration_seconds, n.scenario_name_en)
            IS DISTINCT FROM
            (o.organization_id, o.vr_user_id, o.scenario_id, o.scenario_name, o.device_type,
             o.started_at, o.status, o.success, o.max_tasks, o.duration_seconds, o.scenario_name_en)
         OR (n.status <> 'active' AND n.completed_tasks IS DISTINCT FROM o.completed_tasks)
    ) THEN
      RETURN NULL;
    END IF;
  END IF;
  changed := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1, * FROM old_rows' END;
  delta := format($q$
    SELECT sign, organization_id, vr_user_id, scenario_id, scenario_name, scenario_name_en,
      device_type,
      (started_at AT TIME ZONE 'UTC')::date AS day,
      date_trunc('month', started_at AT TIME ZONE 'UTC')::date AS month,
      status,
      status <> 'active' AS ended,
      success IS TRUE AS succeeded,
      CASE WHEN status <> 'active'
        THEN least(completed_tasks::numeric / greatest(max_tasks, 1), 1) ELSE 0 END AS completion,
      status <> 'active' AND duration_seconds IS NOT NULL AS timed,
      CASE WHEN status <> 'active' THEN coalesce(duration_seconds, 0) ELSE 0 END AS duration
    FROM (%s) changed_rows$q$, changed);

  EXECUTE sessions_rollup_figures_sql('session_daily', 'organization_id, day', delta);
  EXECUTE sessions_rollup_figures_sql('session_daily_all', 'day', delta);
  EXECUTE sessions_rollup_figures_sql('session_monthly', 'organization_id, month', delta);

  EXECUTE format($q$
    INSERT INTO session_daily_scenario AS t (day, scenario_id, scenario_name, scenario_name_en,
      sessions, completed, ended, successes, completion_sum)
    SELECT * FROM (
      SELECT day, scenario_id, scenario_name, max(scenario_name_en) AS scenario_name_en,
        sum(sign)::int AS sessions,
        coalesce(sum(sign) FILTER (WHERE status = 'completed'), 0)::int AS completed,
        coalesce(sum(sign) FILTER (WHERE ended), 0)::int AS ended,
        coalesce(sum(sign) FILTER (WHERE succeeded), 0)::int AS successes,
        sum(sign * completion) AS completion_sum
      FROM (%s) delta GROUP BY day, scenario_id, scenario_name) g
    WHERE (sessions, completed, ended, successes, completion_sum) <> (0, 0, 0, 0, 0)
    ON CONFLICT (day, scenario_id, scenario_name) DO UPDATE SET
      scenario_name_en = coalesce(excluded.scenario_name_en, t.scenario_name_en),
      sessions = t.sessions + excluded.sessions,
      completed = t.completed + excluded.completed,
      ended = t.ended + excluded.ended,
      successes = t.successes + excluded.successes,
      completion_sum = t.completion_sum + excluded.completion_sum$q$, delta);

  EXECUTE format($q$
    INSERT INTO session_daily_device_type AS t (day, device_type, sessions)
    SELECT * FROM (
      SELECT day, device_type, sum(sign)::int AS sessions
      FROM (%s) delta GROUP BY day, device_type) g
    WHERE sessions <> 0
    ON CONFLICT (day, device_type) DO UPDATE SET sessions = t.sessions + excluded.sessions$q$,
    delta);

  -- Counts move by their deltas; the last session is read back from the VR user's index, as a
  -- maximum cannot be undone by subtraction.
  EXECUTE format($q$
    UPDATE vr_users v SET
      session_count = v.session_count + d.sessions,
      completed_count = v.completed_count + d.completed,
      last_session_at = (SELECT max(s.started_at) FROM sessions s WHERE s.vr_user_id = v.id)
    FROM (
      SELECT vr_user_id, sum(sign)::int AS sessions,
        coalesce(sum(sign) FILTER (WHERE status = 'completed'), 0)::int AS completed
      FROM (%s) delta WHERE vr_user_id IS NOT NULL GROUP BY vr_user_id) d
    WHERE v.id = d.vr_user_id AND (d.sessions <> 0 OR d.completed <> 0)$q$, delta);
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_rollup_insert AFTER INSERT ON sessions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sessions_rollup();
CREATE TRIGGER sessions_rollup_update AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_rollup();
CREATE TRIGGER sessions_rollup_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sessions_rollup();

-- What was there before this migration: the trigger's own arithmetic over every row at once.
DO $$
DECLARE
  every_row constant text := $q$
    SELECT 1 AS sign, organization_id,
      (started_at AT TIME ZONE 'UTC')::date AS day,
      date_trunc('month', started_at AT TIME ZONE 'UTC')::date AS month,
      status,
      success IS TRUE AS succeeded,
      CASE WHEN status <> 'active'
        THEN least(completed_tasks::numeric / greatest(max_tasks, 1), 1) ELSE 0 END AS completion,
      status <> 'active' AND duration_seconds IS NOT NULL AS timed,
      CASE WHEN status <> 'active' THEN coalesce(duration_seconds, 0) ELSE 0 END AS duration
    FROM sessions$q$;
BEGIN
  EXECUTE sessions_rollup_figures_sql('session_daily', 'organization_id, day', every_row);
  EXECUTE sessions_rollup_figures_sql('session_daily_all', 'day', every_row);
  EXECUTE sessions_rollup_figures_sql('session_monthly', 'organization_id, month', every_row);
END $$;

INSERT INTO session_daily_scenario (day, scenario_id, scenario_name, scenario_name_en, sessions,
  completed, ended, successes, completion_sum)
SELECT (started_at AT TIME ZONE 'UTC')::date, scenario_id, scenario_name, max(scenario_name_en),
  count(*),
  count(*) FILTER (WHERE status = 'completed'),
  count(*) FILTER (WHERE status <> 'active'),
  count(*) FILTER (WHERE success IS TRUE),
  coalesce(sum(least(completed_tasks::numeric / greatest(max_tasks, 1), 1))
    FILTER (WHERE status <> 'active'), 0)
FROM sessions GROUP BY 1, 2, 3;

INSERT INTO session_daily_device_type (day, device_type, sessions)
SELECT (started_at AT TIME ZONE 'UTC')::date, device_type, count(*) FROM sessions GROUP BY 1, 2;

UPDATE vr_users v SET session_count = c.sessions, completed_count = c.completed,
  last_session_at = c.last_started
FROM (SELECT vr_user_id, count(*) AS sessions,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        max(started_at) AS last_started
      FROM sessions WHERE vr_user_id IS NOT NULL GROUP BY vr_user_id) c
WHERE v.id = c.vr_user_id;

-- History: newest first within an organisation, ended sessions by default or one status; ties on
-- started_at broken by id, so pages never overlap.
DROP INDEX sessions_organization_started_idx;
CREATE INDEX sessions_history_idx ON sessions (organization_id, started_at DESC, id DESC)
  WHERE status <> 'active';
CREATE INDEX sessions_history_status_idx
  ON sessions (organization_id, status, started_at DESC, id DESC);
CREATE INDEX sessions_organization_started_idx
  ON sessions (organization_id, started_at DESC, id DESC);
CREATE INDEX sessions_device_idx ON sessions (device_id, started_at DESC);
CREATE INDEX vr_users_organization_name_idx ON vr_users (organization_id, lower(name), id);
CREATE INDEX devices_organization_name_idx ON devices (organization_id, lower(name), id);
CREATE INDEX devices_name_idx ON devices (lower(name), id);
