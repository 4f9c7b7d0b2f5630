import { QUALIFICATION_STATUSES, type CompliancePage, type Qualification } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeScenarioTree,
  makeSession,
  makeStartableSetup,
  makeTenant,
  makeVrUser,
  markDeviceSeen,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { standingAt } from './derive.ts';
import { pieceRecords, qualificationFacts, recordOf } from './standing.ts';

/**
 * The compliance view reads each assignment's kept pieces (migration 0030) and derives the status
 * in SQL. Whatever changes the record (a headset's finish, a session written or corrected by
 * hand, a signature, a revocation, a changed requirement, a renamed level), the view must answer
 * what derive.ts derives from the record itself, at any moment: past, each piece's own moment,
 * now, and the future.
 */
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeTenant>>;
let setup: Awaited<ReturnType<typeof makeStartableSetup>>;
let other: Awaited<ReturnType<typeof makeScenarioTree>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await makeTenant(t);
  setup = await makeStartableSetup(t, staff.organization.id);
  other = await makeScenarioTree(t.db, { levelName: 'Высота' });
  await grantAccess(t.db, other.scenario.id, staff.organization.id, null, t.clock.now());
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);

async function call<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const response = await t.app.inject({ method, url, headers: staff.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<T>();
}

/** A session of `level` started by staff and finished by its headset now, with `success`. */
async function finishOnHeadset(vrUserName: string, success = true) {
  await markDeviceSeen(t.db, setup.device.id, t.clock.now());
  const started = await call<{ id: string; vr_user_id: string }>('POST', '/v1/sessions/start', {
    device_id: setup.device.id,
    level_id: setup.level.id,
    vr_user_name: vrUserName,
    selected_options: [setup.options[0]!.id],
  });
  const finish = await t.app.inject({
    method: 'POST',
    url: `/v1/headset/sessions/${started.id}/finish`,
    headers: setup.headset.headers,
    payload: { completed_tasks: 3, success },
  });
  expect(finish.statusCode, finish.body).toBe(200);
  return started;
}

/** The view at `at`, every row, against derive.ts over the whole record. */
async function expectAgreesWithRecord(at: Date) {
  const page = await call<CompliancePage>(
    'GET',
    `/v1/compliance?limit=200&as_of=${encodeURIComponent(at.toISOString())}`,
  );
  const organizationId = staff.organization.id;
  const facts = await qualificationFacts(t.db, organizationId, 'all active');
  const records = await pieceRecords(
    t.db,
    organizationId,
    [...new Set(page.rows.map((row) => row.vr_user_id))],
    [...facts.keys()],
  );
  const iso = (moment: Date | null) => moment?.toISOString() ?? null;
  for (const row of page.rows) {
    const requirement = facts.get(row.qualification_id)!.requirement;
    const expected = standingAt(
      requirement,
      recordOf(records, row.vr_user_id, row.qualification_id),
      at,
    );
    expect(
      { status: row.status, earned_at: row.earned_at, valid_until: row.valid_until },
      `${row.vr_user_name} / ${row.qualification_name} at ${at.toISOString()}`,
    ).toEqual({
      status: expected.status,
      earned_at: iso(expected.earnedAt),
      valid_until: iso(expected.validUntil),
    });
  }
  expect(page.total).toBe(page.rows.length);
  expect(page.totals, `totals at ${at.toISOString()}`).toEqual(totalsOf(page.rows));
  return page;
}

/** The totals a reader would count from the rows themselves. */
function totalsOf(rows: CompliancePage['rows']) {
  const totals: Record<string, number> = { overdue: 0 };
  for (const status of QUALIFICATION_STATUSES) totals[status] = 0;
  for (const row of rows) {
    totals[row.status]! += 1;
    if (row.overdue) totals.overdue! += 1;
  }
  return totals;
}

const label = (row: CompliancePage['rows'][number]) =>
  `${row.vr_user_name} / ${row.qualification_name} / ${row.status}`;

/**
 * Every filter at `at` against the whole list filtered by the reader: the totals, the total and
 * the rows in order, read in pages of 3 from both ends (a far page is read in reverse), in both
 * directions of the trainees' order.
 */
async function expectFiltersAgree(at: Date) {
  const asOf = `as_of=${encodeURIComponent(at.toISOString())}`;
  const all = await call<CompliancePage>('GET', `/v1/compliance?limit=200&${asOf}`);
  type Row = CompliancePage['rows'][number];
  const first = all.rows[0]!.vr_user_id;
  const filters: Array<[string, (row: Row) => boolean]> = [
    ['', () => true],
    ['overdue=true', (row) => row.overdue],
    ['overdue=false', (row) => !row.overdue],
    [`vr_user_id=${first}`, (row) => row.vr_user_id === first],
    ['q=борис', (row) => row.vr_user_name.toLowerCase().includes('борис')],
  ];
  for (const status of QUALIFICATION_STATUSES)
    filters.push([`status=${status}`, (row) => row.status === status]);
  for (const id of new Set(all.rows.map((row) => row.qualification_id)))
    filters.push([`qualification_id=${id}`, (row) => row.qualification_id === id]);
  for (const [filter, keeps] of filters) {
    const only = await call<CompliancePage>('GET', `/v1/compliance?limit=200&${asOf}&${filter}`);
    const expected = all.rows.filter(keeps);
    const unfiltered = filter.startsWith('status=') || filter.startsWith('overdue=');
    expect(only.totals, filter).toEqual(unfiltered ? all.totals : totalsOf(expected));
    expect(only.total, filter).toBe(expected.length);
    for (const order of ['asc', 'desc']) {
      const paged: string[] = [];
      for (let offset = 0; offset < expected.length + 3; offset += 3) {
        const page = await call<CompliancePage>(
          'GET',
          `/v1/compliance?limit=3&offset=${offset}&order=${order}&${asOf}&${filter}`,
        );
        paged.push(...page.rows.map(label));
      }
      const inOrder = expected.map(label);
      expect(paged, `${filter} ${order}`).toEqual(order === 'asc' ? inOrder : inOrder.reverse());
      // By valid_until: a short page read along the index, the whole list derived in full (a
      // trainee or a search is always derived in full).
      if (/^(vr_user_id|q)=/.test(filter)) continue;
      const sorted = `sort=valid_until&order=${order}&${asOf}&${filter}`;
      const whole = await call<CompliancePage>('GET', `/v1/compliance?limit=200&${sorted}`);
      // One row a page: the first half of the list is read forwards, so along the index.
      const pages: string[] = [];
      for (let offset = 0; offset < expected.length + 1; offset += 1) {
        const page = await call<CompliancePage>(
          'GET',
          `/v1/compliance?limit=1&offset=${offset}&${sorted}`,
        );
        pages.push(...page.rows.map((row) => `${label(row)} / ${row.valid_until}`));
      }
      expect(pages, `${filter} by valid_until ${order}`).toEqual(
        whole.rows.map((row) => `${label(row)} / ${row.valid_until}`),
      );
    }
  }
}

/** The kept pieces are what the record gives now, for every assignment. */
async function expectKeptAsRecorded() {
  const { rows } = await sql<{ vr_user_id: string }>`
    SELECT a.vr_user_id FROM qualification_assignments a
      CROSS JOIN LATERAL qualification_pieces_at(a.vr_user_id, a.qualification_id, 'infinity') p
    WHERE (a.standing_kind, a.standing_oldest_at, a.standing_earned_at, a.standing_since)
      IS DISTINCT FROM (p.kind, p.oldest_at, p.earned_at, p.since)`.execute(t.db);
  expect(rows).toEqual([]);
  const kept = await sql`SELECT organization_id, qualification_id, kind, assignments
    FROM qualification_standing_counts ORDER BY qualification_id, kind`.execute(t.db);
  const recounted = await sql`SELECT organization_id, qualification_id, standing_kind AS kind,
      count(*)::int AS assignments
    FROM qualification_assignments GROUP BY 1, 2, 3 ORDER BY qualification_id, kind`.execute(t.db);
  expect(kept.rows).toEqual(recounted.rows);
}

/**
 * The kept history (migration 0033) at each of `moments`: for every assignment exactly one
 * version in force, the one the record gives then (qualification_pieces_at, the rules of
 * derive.ts in SQL), with the assignment's due date; and the version in force now is the kept
 * pieces.
 */
async function expectHistoryAsRecorded(moments: Date[]) {
  const { rows } = await sql<{ vr_user_id: string; at: Date; versions: number }>`
    SELECT a.vr_user_id, m.at, h.versions FROM qualification_assignments a
      CROSS JOIN unnest(${moments.map((at) => at.toISOString())}::timestamptz[]) AS m (at)
      CROSS JOIN LATERAL qualification_pieces_at(a.vr_user_id, a.qualification_id, m.at) p
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS versions, min(h.kind) AS kind, min(h.oldest_at) AS oldest_at,
          min(h.earned_at) AS earned_at, min(h.due_at) AS due_at
        FROM qualification_standing_history h
        WHERE h.qualification_id = a.qualification_id AND h.vr_user_id = a.vr_user_id
          AND h.since <= m.at AND h.until > m.at) h
    WHERE h.versions <> 1
      OR (h.kind, h.oldest_at, h.earned_at, h.due_at)
        IS DISTINCT FROM (p.kind, p.oldest_at, p.earned_at, a.due_at)`.execute(t.db);
  expect(rows).toEqual([]);
  const { rows: current } = await sql<{ vr_user_id: string }>`
    SELECT a.vr_user_id FROM qualification_assignments a
      LEFT JOIN qualification_standing_history h ON h.qualification_id = a.qualification_id
        AND h.vr_user_id = a.vr_user_id AND h.until = 'infinity'
    WHERE (h.kind, h.oldest_at, h.earned_at, h.since)
      IS DISTINCT FROM (a.standing_kind, a.standing_oldest_at, a.standing_earned_at,
        coalesce(a.standing_since, '-infinity'))`.execute(t.db);
  expect(current).toEqual([]);
}

/** Every moment worth asking about: long ago, each piece's moment and a second before, now, later. */
async function expectTrueAtEveryMoment() {
  await expectKeptAsRecorded();
  const { rows } = await sql<{ at: Date }>`
    SELECT ended_at AS at FROM sessions WHERE organization_id = ${staff.organization.id}
      AND ended_at IS NOT NULL
    UNION SELECT signed_at FROM qualification_evaluations
    UNION SELECT revoked_at FROM qualification_revocations`.execute(t.db);
  const pieces = rows.map((row) => new Date(row.at).getTime());
  const moments = [
    ago(500).getTime(),
    ...pieces.flatMap((at) => [at - 1000, at]),
    t.clock.now().getTime(),
    t.clock.now().getTime() + 85 * DAY,
    t.clock.now().getTime() + 400 * DAY,
  ];
  await expectHistoryAsRecorded([...new Set(moments)].map((moment) => new Date(moment)));
  for (const moment of new Set(moments)) await expectAgreesWithRecord(new Date(moment));
}

/** The filters now, before most of the record, and once validities have run out. */
async function expectFiltersEverywhen() {
  for (const at of [t.clock.now(), ago(30), new Date(t.clock.now().getTime() + 85 * DAY)])
    await expectFiltersAgree(at);
}

describe('the compliance view’s kept pieces', () => {
  it('follow every change to the record, and any as_of derives what the record says', async () => {
    const both = await call<Qualification>('POST', '/v1/qualifications', {
      name: 'Стропальщик',
      level_ids: [setup.level.id, other.level.id],
      validity_days: 90,
      expiring_within_days: 10,
      evaluation_required: true,
    });
    const one = await call<Qualification>('POST', '/v1/qualifications', {
      name: 'Погрузчик',
      level_ids: [setup.level.id],
      validity_days: null,
    });
    // Anna trains before she is assigned: an assignment starts from what the record holds.
    t.clock.advance(-200 * DAY);
    const anna = await finishOnHeadset('Анна Смирнова');
    t.clock.advance(200 * DAY);
    const boris = await finishOnHeadset('Борис Орлов', false);
    const ids = [anna.vr_user_id, boris.vr_user_id];
    await call('POST', `/v1/qualifications/${both.id}/assignments`, {
      vr_user_ids: ids,
      due_at: ago(5).toISOString(),
    });
    await call('POST', `/v1/qualifications/${one.id}/assignments`, {
      vr_user_ids: ids,
      due_at: null,
    });
    await expectTrueAtEveryMoment();

    // A finish by the headset, a session written straight into the table, a signature.
    t.clock.advance(DAY);
    await finishOnHeadset('Борис Орлов');
    for (const vrUserId of ids) {
      await makeSession(t.db, {
        organizationId: staff.organization.id,
        vrUserId,
        levelId: other.level.id,
        status: 'completed',
        startedAt: ago(40),
      });
    }
    t.clock.advance(DAY);
    const sign = (vrUserId: string, result: 'pass' | 'fail') =>
      call('POST', `/v1/vr-users/${vrUserId}/evaluations`, {
        qualification_id: both.id,
        result,
        meaning: 'Practical evaluation',
        password: TEST_PASSWORD,
      });
    await sign(anna.vr_user_id, 'pass');
    await sign(boris.vr_user_id, 'fail');
    await expectTrueAtEveryMoment();

    // Revoked, then retrained in part; a success corrected by hand; the old session moved to
    // another trainee's name is no piece of hers any more.
    t.clock.advance(DAY);
    await call('POST', `/v1/vr-users/${anna.vr_user_id}/qualifications/${both.id}/revoke`, {
      reason: 'Collision in bay 3',
    });
    t.clock.advance(DAY);
    await finishOnHeadset('Анна Смирнова');
    await t.db
      .updateTable('sessions')
      .set({ success: false })
      .where('vr_user_id', '=', boris.vr_user_id)
      .where('level_id', '=', other.level.id)
      .execute();
    await t.db
      .updateTable('sessions')
      .set({ vr_user_id: boris.vr_user_id })
      .where('id', '=', anna.id)
      .execute();
    await expectTrueAtEveryMoment();

    // Results that arrive late (a headset offline for weeks): one ended before Anna's revocation
    // counts for none of hers after it, one between Boris's pieces changes his past; then a
    // second revocation and a pass signed after it.
    for (const [vrUserId, days] of [
      [anna.vr_user_id, 10],
      [boris.vr_user_id, 100],
      [boris.vr_user_id, 2.5],
    ] as const) {
      await makeSession(t.db, {
        organizationId: staff.organization.id,
        vrUserId,
        levelId: other.level.id,
        status: 'completed',
        startedAt: ago(days),
      });
    }
    await expectTrueAtEveryMoment();
    t.clock.advance(DAY);
    await call('POST', `/v1/vr-users/${boris.vr_user_id}/qualifications/${both.id}/revoke`, {
      reason: 'Failed check on the job',
    });
    t.clock.advance(DAY);
    await sign(boris.vr_user_id, 'pass');
    await expectTrueAtEveryMoment();

    // What is required changes: a level less, no evaluation; a level renamed changes nothing.
    await call('PUT', `/v1/qualifications/${both.id}`, {
      level_ids: [other.level.id],
      evaluation_required: false,
    });
    await t.db
      .updateTable('levels')
      .set({ name: 'Высота (новая)' })
      .where('id', '=', other.level.id)
      .execute();
    await expectTrueAtEveryMoment();
    const now = await expectAgreesWithRecord(t.clock.now());
    expect(new Set(now.rows.map((row) => row.status)).size).toBeGreaterThan(1);
    await expectFiltersEverywhen();

    // A validity set where there was none; a trainee with no session assigned, then deleted; an
    // assignment taken away and made again; a trainee renamed; a qualification archived.
    await call('PUT', `/v1/qualifications/${one.id}`, { validity_days: 30 });
    const vera = await makeVrUser(t.db, staff.organization.id, { name: 'Вера Ким' });
    for (const qualification of [both, one])
      await call('POST', `/v1/qualifications/${qualification.id}/assignments`, {
        vr_user_ids: [vera.id],
        due_at: ago(1).toISOString(),
      });
    await expectTrueAtEveryMoment();
    const remove = (url: string) => t.app.inject({ method: 'DELETE', url, headers: staff.headers });
    expect((await remove(`/v1/vr-users/${vera.id}`)).statusCode).toBeLessThan(300);
    expect(
      (await remove(`/v1/qualifications/${one.id}/assignments/${anna.vr_user_id}`)).statusCode,
    ).toBeLessThan(300);
    await expectTrueAtEveryMoment();
    await call('POST', `/v1/qualifications/${one.id}/assignments`, {
      vr_user_ids: [anna.vr_user_id],
      due_at: null,
    });
    await call('PUT', `/v1/vr-users/${boris.vr_user_id}`, { name: 'Борис Аксёнов' });
    await expectTrueAtEveryMoment();
    await expectFiltersEverywhen();
    expect((await remove(`/v1/qualifications/${both.id}`)).statusCode).toBeLessThan(300);
    await expectTrueAtEveryMoment();

    // The export reads the same rows by keyset, in the same order, each once.
    for (const order of ['sort=valid_until&order=desc', 'sort=status', '']) {
      const listed = await call<CompliancePage>('GET', `/v1/compliance?limit=200&${order}`);
      const exported = await t.app.inject({
        url: `/v1/compliance/export?lang=en&${order}`,
        headers: staff.headers,
      });
      const lines = exported.body.trim().split('\r\n').slice(1);
      expect(lines.map((line) => line.split(',').slice(0, 2).join(' / '))).toEqual(
        listed.rows.map((row) => `${row.vr_user_name} / ${row.qualification_name}`),
      );
    }

    // A write rolled back leaves the kept pieces as they were.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('sessions')
          .where('organization_id', '=', staff.organization.id)
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectKeptAsRecorded();
    await expectHistoryAsRecorded([ago(500), ago(30), t.clock.now()]);
    // About ninety reads of the view checked against the record, and each filter paged at three
    // moments at two stages.
  }, 240_000);
});
