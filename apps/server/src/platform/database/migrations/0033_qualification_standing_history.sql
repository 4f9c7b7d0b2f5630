-- The kept pieces' history (docs/compliance.md, "At scale"): each assignment keeps, besides its
-- pieces as the record holds them now (migration 0030), what the record gave from each of its
-- moments on, so a past as_of reads the version in force then instead of deriving every pair
-- changed since.
--
-- A pair's moments are those of its pieces and revocations (a required level's completion, a
-- signed pass, a revocation): between two of them, the record gives the same pieces. Each row is
-- one version, in force over [since, until): since is one of those moments ('-infinity' for the
-- first row, before any), until the next one ('infinity' for the version in force now, which is
-- the assignment's kept pieces: same kind, oldest_at and earned_at, since = standing_since).
-- Every version is qualification_pieces_at at its moment, so it is what derive.ts derives there;
-- nothing is typed in. due_at is the assignment's, copied so that a count of versions needs no
-- other row.
CREATE TABLE qualification_standing_history (
  qualification_id uuid NOT NULL,
  vr_user_id uuid NOT NULL,
  organization_id uuid NOT NULL,
  since timestamptz NOT NULL,
  until timestamptz NOT NULL,
  kind text NOT NULL
    CHECK (kind IN ('revoked', 'not_qualified', 'pending_evaluation', 'complete')),
  oldest_at timestamptz,
  earned_at timestamptz,
  due_at timestamptz,
  PRIMARY KEY (qualification_id, vr_user_id, since),
  FOREIGN KEY (qualification_id, vr_user_id)
    REFERENCES qualification_assignments (qualification_id, vr_user_id) ON DELETE CASCADE,
  CHECK (since < until)
);
-- The versions in force at a past T that are no longer (the pairs changed after T): closed after
-- T and begun at or before it. By until for a recent T, by since for a far one; the planner
-- chooses the shorter range.
CREATE INDEX qualification_standing_history_until_idx
  ON qualification_standing_history (organization_id, until)
  INCLUDE (since, qualification_id, kind, oldest_at, due_at) WHERE until < 'infinity';
CREATE INDEX qualification_standing_history_since_idx
  ON qualification_standing_history (organization_id, since)
  INCLUDE (until, qualification_id, kind, oldest_at, due_at) WHERE until < 'infinity';
-- The versions in force now that began after a past T (the same pairs, as the kept pieces give).
CREATE INDEX qualification_standing_history_current_idx
  ON qualification_standing_history (organization_id, since)
  INCLUDE (qualification_id, kind, oldest_at, due_at) WHERE until = 'infinity';

-- Re-derives the history of these pairs (zipped arrays) from each one's moment `froms` on (the
-- earliest moment a change touched; '-infinity' for all of it): the versions from it are taken
-- away, one is derived at each moment of the pair from it on, and the untils are set again. A
-- version depends only on the pieces at or before its moment, so those before `from` stand.
-- The record's triggers below call it after qualification_standing_refresh, whose UPDATE of the
-- assignment holds that row until commit: two transactions changing one pair re-derive its
-- history one after the other, the second's statements seeing the first's versions.
CREATE FUNCTION qualification_standing_history_refresh(
  vr_user_ids uuid[], qualification_ids uuid[], froms timestamptz[]
) RETURNS void LANGUAGE sql AS $$
  DELETE FROM qualification_standing_history h
  USING (SELECT vr_user_id, qualification_id, min(coalesce(since, '-infinity')) AS since
    FROM unnest(vr_user_ids, qualification_ids, froms) AS x (vr_user_id, qualification_id, since)
    GROUP BY 1, 2) x
  WHERE h.vr_user_id = x.vr_user_id AND h.qualification_id = x.qualification_id
    AND h.since >= x.since;
  INSERT INTO qualification_standing_history
    (qualification_id, vr_user_id, organization_id, since, until, kind, oldest_at, earned_at, due_at)
  SELECT a.qualification_id, a.vr_user_id, a.organization_id, m.at, 'infinity', p.kind,
    p.oldest_at, p.earned_at, a.due_at
  FROM (SELECT vr_user_id, qualification_id, min(coalesce(since, '-infinity')) AS since
      FROM unnest(vr_user_ids, qualification_ids, froms) AS x (vr_user_id, qualification_id, since)
      GROUP BY 1, 2) x
    JOIN qualification_assignments a
      ON a.vr_user_id = x.vr_user_id AND a.qualification_id = x.qualification_id
    CROSS JOIN LATERAL (
      SELECT '-infinity'::timestamptz AS at WHERE x.since = '-infinity'
      UNION
      SELECT s.ended_at FROM qualification_levels ql
        JOIN sessions s ON s.organization_id = a.organization_id AND s.vr_user_id = a.vr_user_id
          AND s.level_id = ql.level_id
      WHERE ql.qualification_id = a.qualification_id AND s.success IS TRUE
        AND s.status <> 'active' AND s.ended_at >= x.since
      UNION
      SELECT e.signed_at FROM qualification_evaluations e
      WHERE e.vr_user_id = a.vr_user_id AND e.qualification_id = a.qualification_id
        AND e.result = 'pass' AND e.signed_at >= x.since
      UNION
      SELECT r.revoked_at FROM qualification_revocations r
      WHERE r.vr_user_id = a.vr_user_id AND r.qualification_id = a.qualification_id
        AND r.revoked_at >= x.since
    ) m
    CROSS JOIN LATERAL qualification_pieces_at(a.vr_user_id, a.qualification_id, m.at) p;
  UPDATE qualification_standing_history h SET until = n.until
  FROM (
    SELECT h.qualification_id, h.vr_user_id, h.since,
      coalesce(lead(h.since) OVER (PARTITION BY h.qualification_id, h.vr_user_id ORDER BY h.since),
        'infinity') AS until
    FROM qualification_standing_history h
      JOIN (SELECT DISTINCT * FROM unnest(vr_user_ids, qualification_ids)
        AS x (vr_user_id, qualification_id)) x
      ON h.vr_user_id = x.vr_user_id AND h.qualification_id = x.qualification_id
  ) n
  WHERE h.qualification_id = n.qualification_id AND h.vr_user_id = n.vr_user_id
    AND h.since = n.since AND h.until <> n.until;
$$;

-- Sessions: the completions a statement added, removed or moved, each from its moment (the
-- earlier of its old and new one when moved). A statement that moves no completion (a
-- heartbeat, progress, a session still running) re-derives nothing, as in migration 0030.
CREATE OR REPLACE FUNCTION qualification_standing_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vr_user_ids uuid[];
  qualification_ids uuid[];
  froms timestamptz[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id), array_agg(c.ended_at)
    INTO vr_user_ids, qualification_ids, froms
    FROM (SELECT vr_user_id, level_id, min(ended_at) AS ended_at FROM new_rows
      WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL GROUP BY 1, 2) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id), array_agg(c.ended_at)
    INTO vr_user_ids, qualification_ids, froms
    FROM (SELECT vr_user_id, level_id, min(ended_at) AS ended_at FROM old_rows
      WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL GROUP BY 1, 2) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  ELSE
    SELECT array_agg(c.vr_user_id), array_agg(ql.qualification_id), array_agg(c.ended_at)
    INTO vr_user_ids, qualification_ids, froms
    FROM (
      -- A completion whose moment is unknown (NULL) re-derives its pair's whole history.
      SELECT vr_user_id, level_id, min(coalesce(ended_at, '-infinity')) AS ended_at FROM (
        (SELECT vr_user_id, level_id, ended_at FROM new_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL
         EXCEPT SELECT vr_user_id, level_id, ended_at FROM old_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL)
        UNION ALL
        (SELECT vr_user_id, level_id, ended_at FROM old_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL
         EXCEPT SELECT vr_user_id, level_id, ended_at FROM new_rows
          WHERE success IS TRUE AND status <> 'active' AND vr_user_id IS NOT NULL)
      ) moved GROUP BY 1, 2
    ) c
    JOIN qualification_levels ql ON ql.level_id = c.level_id;
  END IF;
  IF vr_user_ids IS NOT NULL THEN
    PERFORM qualification_standing_refresh(vr_user_ids, qualification_ids);
    PERFORM qualification_standing_history_refresh(vr_user_ids, qualification_ids, froms);
  END IF;
  RETURN NULL;
END $$;

-- Signed evaluations and revocations (append only): from the moment of each.
CREATE OR REPLACE FUNCTION qualification_standing_pieces() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM qualification_standing_refresh(array_agg(vr_user_id), array_agg(qualification_id))
  FROM new_rows;
  IF TG_TABLE_NAME = 'qualification_evaluations' THEN
    PERFORM qualification_standing_history_refresh(array_agg(vr_user_id),
      array_agg(qualification_id), array_agg(signed_at))
    FROM new_rows;
  ELSE
    PERFORM qualification_standing_history_refresh(array_agg(vr_user_id),
      array_agg(qualification_id), array_agg(revoked_at))
    FROM new_rows;
  END IF;
  RETURN NULL;
END $$;

-- What a qualification requires changed: every assignment of it, its whole history.
CREATE OR REPLACE FUNCTION qualification_standing_requirement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vr_user_ids uuid[];
  qualification_ids uuid[];
BEGIN
  IF TG_TABLE_NAME = 'qualifications' THEN
    SELECT array_agg(a.vr_user_id), array_agg(a.qualification_id) INTO vr_user_ids, qualification_ids
    FROM qualification_assignments a WHERE a.qualification_id = NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(a.vr_user_id), array_agg(a.qualification_id) INTO vr_user_ids, qualification_ids
    FROM qualification_assignments a WHERE a.qualification_id IN (SELECT qualification_id FROM old_rows);
  ELSE
    SELECT array_agg(a.vr_user_id), array_agg(a.qualification_id) INTO vr_user_ids, qualification_ids
    FROM qualification_assignments a WHERE a.qualification_id IN (SELECT qualification_id FROM new_rows);
  END IF;
  IF vr_user_ids IS NOT NULL THEN
    PERFORM qualification_standing_refresh(vr_user_ids, qualification_ids);
    PERFORM qualification_standing_history_refresh(vr_user_ids, qualification_ids,
      array_fill('-infinity'::timestamptz, ARRAY[cardinality(vr_user_ids)]));
  END IF;
  RETURN NULL;
END $$;

-- A new assignment: its whole history from the record.
CREATE FUNCTION qualification_standing_history_assigned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM qualification_standing_history_refresh(array_agg(vr_user_id),
    array_agg(qualification_id), array_agg('-infinity'::timestamptz))
  FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER qualification_assignments_history_insert AFTER INSERT ON qualification_assignments
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_history_assigned();

-- A due date changed (an assignment made again): its copy in every version. Only then: the kept
-- pieces' own updates of the assignment fire nothing here.
CREATE FUNCTION qualification_standing_history_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE qualification_standing_history SET due_at = NEW.due_at
  WHERE qualification_id = NEW.qualification_id AND vr_user_id = NEW.vr_user_id;
  RETURN NULL;
END $$;
CREATE TRIGGER qualification_assignments_history_due AFTER UPDATE OF due_at
  ON qualification_assignments
  FOR EACH ROW WHEN (OLD.due_at IS DISTINCT FROM NEW.due_at)
  EXECUTE FUNCTION qualification_standing_history_due();

-- The assignments made before this migration: their whole history from the record.
SELECT qualification_standing_history_refresh(array_agg(vr_user_id), array_agg(qualification_id),
  array_agg('-infinity'::timestamptz))
FROM qualification_assignments;

-- A status filter matching few rows (revoked, pending_evaluation) reads the assignments of that
-- kind of pieces instead of walking every trainee for its page (compliance.ts, SPARSE_ROWS).
CREATE INDEX qualification_assignments_kind_idx
  ON qualification_assignments (organization_id, standing_kind, standing_since);
