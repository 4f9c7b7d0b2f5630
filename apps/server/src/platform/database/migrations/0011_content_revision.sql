-- Content revision: each level carries a revision that any change to the level, its module, its
-- scenario or its options raises, and a session keeps the revision it ran, so a training record
-- can say "Level 2, revision 5". Triggers, not calls in the services: no statement can change
-- content without raising it (an admin screen, a script, a future route alike).
--
-- "A change" is any column but the bookkeeping ones: a level's own revision (which the other
-- triggers raise) and a scenario's active flag (it decides who may start the scenario, not what
-- it trains). A level whose content did not change (an UPDATE setting the same values) keeps its
-- revision.
ALTER TABLE levels ADD COLUMN revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1);

-- Sessions started before this migration ran the level as it is now: every level is at 1.
ALTER TABLE sessions ADD COLUMN level_revision integer NOT NULL DEFAULT 1 CHECK (level_revision >= 1);

-- The level's own columns: raised in the same row, before it is written.
CREATE FUNCTION vrtc_level_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.revision = OLD.revision
    AND to_jsonb(NEW) - 'revision' IS DISTINCT FROM to_jsonb(OLD) - 'revision' THEN
    NEW.revision := OLD.revision + 1;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER levels_revised BEFORE UPDATE ON levels
  FOR EACH ROW EXECUTE FUNCTION vrtc_level_revised();

-- A scenario, a module or an option changed: every level under it is raised once per changed row.
CREATE FUNCTION vrtc_scenario_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE levels SET revision = revision + 1
  WHERE module_id IN (SELECT id FROM modules WHERE scenario_id = NEW.id);
  RETURN NULL;
END
$$;

CREATE TRIGGER scenarios_revised AFTER UPDATE ON scenarios
  FOR EACH ROW WHEN (to_jsonb(NEW) - 'active' IS DISTINCT FROM to_jsonb(OLD) - 'active')
  EXECUTE FUNCTION vrtc_scenario_revised();

CREATE FUNCTION vrtc_module_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE levels SET revision = revision + 1 WHERE module_id = NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER modules_revised AFTER UPDATE ON modules
  FOR EACH ROW WHEN (to_jsonb(NEW) IS DISTINCT FROM to_jsonb(OLD))
  EXECUTE FUNCTION vrtc_module_revised();

-- An option added, changed, moved or removed changes the level(s) it belongs to. (Removed with its
-- level, the level is gone and nothing is raised.)
CREATE FUNCTION vrtc_option_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND to_jsonb(NEW) IS NOT DISTINCT FROM to_jsonb(OLD) THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE levels SET revision = revision + 1 WHERE id = OLD.level_id;
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.level_id <> OLD.level_id) THEN
    UPDATE levels SET revision = revision + 1 WHERE id = NEW.level_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER level_options_revised AFTER INSERT OR UPDATE OR DELETE ON level_options
  FOR EACH ROW EXECUTE FUNCTION vrtc_option_revised();
