-- Scenario figures by month as well as by day, as session_monthly is to session_daily: a year of
-- them reads about 12 months and the days at the year's ends (20 scenarios: ~800 rows, not 7,300),
-- and all time reads months only.
--
-- Kept from the daily scenario rollup rather than from sessions: every change of a daily row
-- (the sessions trigger's upserts, whoever wrote the sessions) moves its month by the same amount.
CREATE TABLE session_monthly_scenario (LIKE session_daily_scenario INCLUDING DEFAULTS);
ALTER TABLE session_monthly_scenario RENAME COLUMN day TO month;
COMMENT ON COLUMN session_monthly_scenario.month IS 'the first day of the month';
CREATE UNIQUE INDEX session_monthly_scenario_key
  ON session_monthly_scenario (month, scenario_id, scenario_name) NULLS NOT DISTINCT;

CREATE FUNCTION session_daily_scenario_to_month() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO session_monthly_scenario AS t (month, scenario_id, scenario_name, sessions,
      completed, ended, successes, completion_sum)
    VALUES (date_trunc('month', OLD.day)::date, OLD.scenario_id, OLD.scenario_name,
      -OLD.sessions, -OLD.completed, -OLD.ended, -OLD.successes, -OLD.completion_sum)
    ON CONFLICT (month, scenario_id, scenario_name) DO UPDATE SET
      sessions = t.sessions + excluded.sessions,
      completed = t.completed + excluded.completed,
      ended = t.ended + excluded.ended,
      successes = t.successes + excluded.successes,
      completion_sum = t.completion_sum + excluded.completion_sum;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO session_monthly_scenario AS t (month, scenario_id, scenario_name,
      scenario_name_en, sessions, completed, ended, successes, completion_sum)
    VALUES (date_trunc('month', NEW.day)::date, NEW.scenario_id, NEW.scenario_name,
      NEW.scenario_name_en, NEW.sessions, NEW.completed, NEW.ended, NEW.successes,
      NEW.completion_sum)
    ON CONFLICT (month, scenario_id, scenario_name) DO UPDATE SET
      scenario_name_en = coalesce(excluded.scenario_name_en, t.scenario_name_en),
      sessions = t.sessions + excluded.sessions,
      completed = t.completed + excluded.completed,
      ended = t.ended + excluded.ended,
      successes = t.successes + excluded.successes,
      completion_sum = t.completion_sum + excluded.completion_sum;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER session_daily_scenario_to_month
  AFTER INSERT OR UPDATE OR DELETE ON session_daily_scenario
  FOR EACH ROW EXECUTE FUNCTION session_daily_scenario_to_month();

-- What there is already.
INSERT INTO session_monthly_scenario (month, scenario_id, scenario_name, scenario_name_en,
  sessions, completed, ended, successes, completion_sum)
SELECT date_trunc('month', day)::date, scenario_id, scenario_name, max(scenario_name_en),
  sum(sessions), sum(completed), sum(ended), sum(successes), sum(completion_sum)
FROM session_daily_scenario GROUP BY 1, 2, 3;
