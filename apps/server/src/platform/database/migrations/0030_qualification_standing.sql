-- The compliance view at scale (docs/compliance.md, "At scale"): each assignment keeps its
-- trainee's pieces as the record holds them now, so the list derives 200,000 statuses at a moment
-- T from one narrow row each instead of reading every session.
--
-- Nothing here is a status typed in: `standing_kind`, `standing_oldest_at` and
-- `standing_earned_at` are what the record gives once every piece in it counts (T at or after
-- `standing_since`, the newest completion, signed pass or revocation of the pair); the status at T
-- is computed from them and the qualification's validity when read. Triggers keep them in the
-- transaction of every statement that writes a piece (a session ending, a late result, a signed
-- evaluation, a revocation) or changes what is required, whoever runs it. A T before
-- `standing_since` (as_of in the past) derives that pair from the record itself, through
-- qualification_pieces_at and sessions_completions_idx (migration 0026).

-- The pieces of one trainee and one qualification at T, as derive.ts counts them: each required
-- level by its latest completion at or before T, the evaluation by its latest signed pass, and
-- only those after the latest revocation at or before T.
-- kind: revoked | not_qualified | pending_evaluation | complete; for complete, oldest_at (the
-- oldest counting piece: valid_until is it + validity_days) and earned_at (the newest). since: the
-- newest piece or revocation at or before T, whether it counts or not.
CREATE FUNCTION qualification_pieces_at(p_vr_user_id uuid, p_qualification_id uuid, t timestamptz)
RETURNS TABLE (kind text, oldest_at timestamptz, earned_at timestamptz, since timestamptz)
LANGUAGE sql STABLE AS $$
  WITH revocation AS (
    SELECT max(r.revoked_at) AS at FROM qualification_revocations r
    WHERE r.vr_user_id = p_vr_user_id AND r.qualification_id = p_qualification_id
      AND r.revoked_at <= t
  ), levels AS (
    SELECT (SELECT max(s.ended_at) FROM sessions s
        WHERE s.organization_id = q.organization_id AND s.vr_user_id = p_vr_user_id AND s.level_id = ql.level_id
          AND s.success IS TRUE AND s.status <> 'active' AND s.ended_at <= t) AS at
    FROM qualification_levels ql JOIN qualifications q ON q.id = ql.qualification_id
    WHERE ql.qualification_id = p_qualification_id
  ), pass AS (
    SELECT max(e.signed_at) AS at FROM qualification_evaluations e
    WHERE e.vr_user_id = p_vr_user_id AND e.qualification_id = p_qualification_id
      AND e.result = 'pass' AND e.signed_at <= t
  ), counted AS (
    SELECT revocation.at AS revoked_at,
      (SELECT count(*) FROM levels) AS needed,
      (SELECT count(*) FROM levels l WHERE l.at > coalesce(revocation.at, '-infinity')) AS done,
      (SELECT min(l.at) FROM levels l WHERE l.at > coalesce(revocation.at, '-infinity')) AS oldest,
      (SELECT max(l.at) FROM levels l WHERE l.at > coalesce(revocation.at, '-infinity')) AS newest,
      CASE WHEN q.evaluation_required AND pass.at > coalesce(revocation.at, '-infinity')
        THEN pass.at END AS evaluation,
      q.evaluation_required,
      greatest(revocation.at, (SELECT max(l.at) FROM levels l), pass.at) AS since
    FROM qualifications q, revocation, pass WHERE q.id = p_qualification_id
  )
  SELECT k.kind,
    CASE WHEN k.kind = 'complete' THEN least(k.oldest, k.evaluation) END,
    CASE WHEN k.kind = 'complete' THEN greatest(k.newest, k.evaluation) END,
    k.since
  FROM (
    SELECT counted.*, CASE
        WHEN revoked_at IS NOT NULL AND done = 0 AND evaluation IS NULL THEN 'revoked'
        WHEN done < needed THEN 'not_qualified'
        WHEN evaluation_required AND evaluation IS NULL THEN 'pending_evaluation'
        ELSE 'complete'
      END AS kind
    FROM counted
  ) k
$$;

ALTER TABLE qualification_assignments
  ADD COLUMN standing_kind text NOT NULL DEFAULT 'not_qualified'
    CHECK (standing_kind IN ('revoked', 'not_qualified', 'pending_evaluation', 'complete')),
  ADD COLUMN standing_oldest_at timestamptz,
  ADD COLUMN standing_earned_at timestamptz,
  ADD COLUMN standing_since timestamptz;
-- The pairs a past as_of derives from the record: those with a piece after it.
CREATE INDEX qualification_assignments_since_idx
  ON qualification_assignments (organization_id, standing_since);

-- Re-derives the kept pieces of these pairs (zipped arrays) from the record.
CREATE FUNCTION qualification_standing_refresh(vr_user_ids uuid[], qualification_ids uuid[])
RETURNS void LANGUAGE sql AS $$
  UPDATE qualification_assignments a
  SET (standing_kind, standing_oldest_at, standing_earned_at, standing_since) =
    (SELECT p.kind, p.oldest_at, p.earned_at, p.since
     FROM qualification_pieces_at(a.vr_user_id, a.qualification_id, 'infinity') p)
  FROM (SELECT DISTINCT * FROM unnest(vr_user_ids, qualification_ids) AS x (vr_user_id, qualification_id)) x
  WHERE a.vr_user_id = x.vr_user_id AND a.qualification_id = x.qualification_id
$$;

-- Sessions: the pairs of the completions a statement added, removed or moved (an ending, a late
-- result, a level or trainee set to null when it is deleted, a purge).
CREATE FUNCTION qualification_standing_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vr_user_ids uuid[];
  qualification_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id) INTO vr_user_ids, qualification_ids
    FROM (SELECT DISTINCT vr_user_id, level_id FROM new_rows
      WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id) INTO vr_user_ids, qualification_ids
    FROM (SELECT DISTINCT vr_user_id, level_id FROM old_rows
      WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  ELSE
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id) INTO vr_user_ids, qualification_ids
    FROM (
      SELECT DISTINCT vr_user_id, level_id FROM (
        (SELECT vr_user_id, level_id, ended_at FROM new_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL
         EXCEPT SELECT vr_user_id, level_id, ended_at FROM old_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL)
        UNION ALL
        (SELECT vr_user_id, level_id, ended_at FROM old_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL
         EXCEPT SELECT vr_user_id, level_id, ended_at FROM new_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL)
      ) moved
    ) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  END IF;
  IF vr_user_ids IS NOT NULL THEN
    PERFORM qualification_standing_refresh(vr_user_ids, qualification_ids);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_qualification_standing_insert AFTER INSERT ON sessions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_sessions();
CREATE TRIGGER sessions_qualification_standing_update AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_sessions();
CREATE TRIGGER sessions_qualification_standing_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_sessions();

-- Signed evaluations and revocations (append only): the pairs they were written for.
CREATE FUNCTION qualification_standing_pieces() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM qualification_standing_refresh(array_agg(vr_user_id), array_agg(qualification_id))
  FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER qualification_evaluations_standing AFTER INSERT ON qualification_evaluations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_pieces();
CREATE TRIGGER qualification_revocations_standing AFTER INSERT ON qualification_revocations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_pieces();

-- What a qualification requires changed (its levels, whether it needs an evaluation): every
-- assignment of it. (validity_days and expiring_within_days are read with the status.)
CREATE FUNCTION qualification_standing_requirement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'qualifications' THEN
    PERFORM qualification_standing_refresh(array_agg(a.vr_user_id), array_agg(a.qualification_id))
    FROM qualification_assignments a WHERE a.qualification_id = NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM qualification_standing_refresh(array_agg(a.vr_user_id), array_agg(a.qualification_id))
    FROM qualification_assignments a WHERE a.qualification_id IN (SELECT qualification_id FROM old_rows);
  ELSE
    PERFORM qualification_standing_refresh(array_agg(a.vr_user_id), array_agg(a.qualification_id))
    FROM qualification_assignments a WHERE a.qualification_id IN (SELECT qualification_id FROM new_rows);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER qualification_levels_standing_insert AFTER INSERT ON qualification_levels
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_requirement();
CREATE TRIGGER qualification_levels_standing_delete AFTER DELETE ON qualification_levels
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_requirement();
CREATE TRIGGER qualifications_standing AFTER UPDATE OF evaluation_required ON qualifications
  FOR EACH ROW WHEN (OLD.evaluation_required IS DISTINCT FROM NEW.evaluation_required)
  EXECUTE FUNCTION qualification_standing_requirement();

-- A new assignment starts with what the record already holds.
CREATE FUNCTION qualification_standing_assigned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p.kind, p.oldest_at, p.earned_at, p.since
  INTO NEW.standing_kind, NEW.standing_oldest_at, NEW.standing_earned_at, NEW.standing_since
  FROM qualification_pieces_at(NEW.vr_user_id, NEW.qualification_id, 'infinity') p;
  RETURN NEW;
END $$;
CREATE TRIGGER qualification_assignments_standing BEFORE INSERT ON qualification_assignments
  FOR EACH ROW EXECUTE FUNCTION qualification_standing_assigned();

-- The assignments made before this migration, from the record as it stands.
UPDATE qualification_assignments a
SET (standing_kind, standing_oldest_at, standing_earned_at, standing_since) =
  (SELECT p.kind, p.oldest_at, p.earned_at, p.since
   FROM qualification_pieces_at(a.vr_user_id, a.qualification_id, 'infinity') p);
