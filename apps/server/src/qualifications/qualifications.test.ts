import {
  neutralizeCsvCell,
  type CompliancePage,
  type Qualification,
  type TrainingRecord,
} from '@vrtc/contract';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';

/** Qualifications over HTTP: definitions, assignments, signatures, revocations, compliance. */
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await makeTenant(t);
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);

/** A level of a scenario the organisation holds a grant for. */
async function grantedLevel(organizationId = staff.organization.id, levelName = 'Forks') {
  const tree = await makeScenarioTree(t.db, { levelName });
  await t.db
    .insertInto('scenario_access')
    .values({
      scenario_id: tree.scenario.id,
      organization_id: organizationId,
      granted_at: ago(400),
    })
    .execute();
  return tree.level;
}

/** A session of the level that ended with success at `endedAt`. */
const passLevel = (vrUserId: string, levelId: string, endedAt: Date, levelName?: string) =>
  makeSession(t.db, {
    organizationId: staff.organization.id,
    vrUserId,
    levelId,
    levelName,
    status: 'completed',
    startedAt: new Date(endedAt.getTime() - 300_000),
    durationSeconds: 300,
  });

async function createQualification(body: Record<string, unknown>, headers = staff.headers) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/qualifications',
    headers,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Qualification>();
}

async function assign(qualificationId: string, vrUserIds: string[], dueAt: string | null = null) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v1/qualifications/${qualificationId}/assignments`,
    headers: staff.headers,
    payload: { vr_user_ids: vrUserIds, due_at: dueAt },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function compliance(query: string) {
  const response = await t.app.inject({ url: `/v1/compliance?${query}`, headers: staff.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CompliancePage>();
}

describe('qualifications', () => {
  it('are defined, read, changed and archived by staff', async () => {
    const level = await grantedLevel();
    const created = await createQualification({
      name: 'Погрузчик',
      name_en: 'Forklift',
      level_ids: [level.id],
      validity_days: 1095,
      evaluation_required: true,
    });
    expect(created).toMatchObject({
      name: 'Погрузчик',
      name_en: 'Forklift',
      level_ids: [level.id],
      validity_days: 1095,
      expiring_within_days: 30,
      evaluation_required: true,
      assigned_count: 0,
    });
    const url = `/v1/qualifications/${created.id}`;
    const changed = await t.app.inject({
      method: 'PUT',
      url,
      headers: staff.headers,
      payload: { validity_days: null },
    });
    expect(changed.json()).toMatchObject({ validity_days: null, name: 'Погрузчик' });
    const listed = await t.app.inject({
      url: '/v1/qualifications?q=погруз',
      headers: staff.headers,
    });
    expect(listed.json().qualifications.map((q: Qualification) => q.id)).toContain(created.id);

    const archived = await t.app.inject({ method: 'DELETE', url, headers: staff.headers });
    expect(archived.statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: staff.headers })).statusCode).toBe(404);
    const after = await t.app.inject({ url: '/v1/qualifications', headers: staff.headers });
    expect(after.json().qualifications.map((q: Qualification) => q.id)).not.toContain(created.id);
  });

  it('refuses a level the organisation cannot use, and bad input, naming the field', async () => {
    const ungranted = await makeScenarioTree(t.db);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/qualifications',
      headers: staff.headers,
      payload: { name: 'Crane', level_ids: [ungranted.level.id] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'level_not_available',
      details: { field: 'body.level_ids' },
    });
    const level = await grantedLevel();
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/v1/qualifications',
      headers: staff.headers,
      payload: { name: 'Crane', level_ids: [level.id], validity_days: 3651 },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toBe('validation_error');
    expect(tooLong.body).toContain('validity_days');
  });
});

describe('a trainee’s qualification', () => {
  it('is derived from the record: boundaries, renewal, revocation, as_of', async () => {
    const [a, b] = [await grantedLevel(), await grantedLevel()];
    const q = await createQualification({
      name: 'Стропальщик',
      level_ids: [a.id, b.id],
      validity_days: 365,
      expiring_within_days: 30,
    });
    const trainee = await makeVrUser(t.db, staff.organization.id, { name: 'Анна Смирнова' });
    await assign(q.id, [trainee.id], ago(1).toISOString());
    const row = async (query = '') =>
      (await compliance(`qualification_id=${q.id}${query}`)).rows[0]!;

    expect(await row()).toMatchObject({ status: 'not_qualified', overdue: true });
    const aDone = ago(100);
    const bDone = ago(90);
    await passLevel(trainee.id, a.id, aDone);
    expect((await row()).status).toBe('not_qualified');
    await passLevel(trainee.id, b.id, bDone);
    const qualified = await row();
    const validUntil = new Date(aDone.getTime() + 365 * DAY);
    expect(qualified).toMatchObject({
      status: 'qualified',
      earned_at: bDone.toISOString(),
      valid_until: validUntil.toISOString(),
      overdue: false,
    });
    expect(qualified.certificate_code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The audit day ahead: exactly at valid_until it has lapsed, a second before it has not.
    const at = (moment: Date) => `&as_of=${encodeURIComponent(moment.toISOString())}`;
    expect((await row(at(new Date(validUntil.getTime() - 1000)))).status).toBe('expiring');
    expect((await row(at(validUntil))).status).toBe('expired');
    expect((await row(at(new Date(validUntil.getTime() - 30 * DAY - 1000)))).status).toBe(
      'qualified',
    );
    // And in the past, before the second level was passed.
    expect((await row(at(ago(95)))).status).toBe('not_qualified');

    // Redoing the oldest piece renews.
    const renewed = ago(10);
    await passLevel(trainee.id, a.id, renewed);
    const after = await row();
    expect(after.valid_until).toBe(new Date(bDone.getTime() + 365 * DAY).toISOString());
    expect(after.certificate_code).not.toBe(qualified.certificate_code);
    const superseded = await t.app.inject({
      url: `/v1/certificates/${qualified.certificate_code}`,
    });
    expect(superseded.json()).toMatchObject({
      status: 'superseded',
      holder_name: 'Анна Смирнова',
      qualification_name: 'Стропальщик',
      organization_name: staff.organization.name,
      valid_from: bDone.toISOString(),
    });

    // Revoked until new pieces are done, then retrained.
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/v1/vr-users/${trainee.id}/qualifications/${q.id}/revoke`,
      headers: staff.headers,
      payload: { reason: 'Collision in bay 3' },
    });
    expect(revoked.statusCode, revoked.body).toBe(201);
    expect((await row()).status).toBe('revoked');
    const current = await t.app.inject({ url: `/v1/certificates/${after.certificate_code}` });
    expect(current.json().status).toBe('revoked');
    t.clock.advance(60_000);
    await passLevel(trainee.id, a.id, t.clock.now());
    expect((await row()).status).toBe('not_qualified');
    t.clock.advance(60_000);
    await passLevel(trainee.id, b.id, t.clock.now());
    expect((await row()).status).toBe('qualified');

    const totals = (await compliance(`qualification_id=${q.id}`)).totals;
    expect(totals).toEqual({
      qualified: 1,
      expiring: 0,
      expired: 0,
      pending_evaluation: 0,
      not_qualified: 0,
      revoked: 0,
      overdue: 0,
    });
  });

  it('needs a signed evaluation; a wrong password stores nothing', async () => {
    const level = await grantedLevel();
    const q = await createQualification({
      name: 'Forklift operator',
      level_ids: [level.id],
      validity_days: 1095,
      evaluation_required: true,
    });
    const trainee = await makeVrUser(t.db, staff.organization.id);
    await assign(q.id, [trainee.id]);
    await passLevel(trainee.id, level.id, ago(2));
    expect((await compliance(`qualification_id=${q.id}`)).rows[0]!.status).toBe(
      'pending_evaluation',
    );
    const sign = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/vr-users/${trainee.id}/evaluations`,
        headers: staff.headers,
        payload: {
          qualification_id: q.id,
          result: 'pass',
          meaning: 'Practical evaluation performed and passed',
          notes: 'Truck 7',
          password,
        },
      });
    const wrong = await sign('not-the-password');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe('signature_rejected');
    expect(await t.db.selectFrom('qualification_evaluations').selectAll().execute()).toEqual([]);

    const signed = await sign(TEST_PASSWORD);
    expect(signed.statusCode, signed.body).toBe(201);
    expect(signed.json()).toMatchObject({
      result: 'pass',
      meaning: 'Practical evaluation performed and passed',
      signer_name: staff.account.email,
      signer_email: staff.account.email,
      signed_at: t.clock.now().toISOString(),
    });
    expect((await compliance(`qualification_id=${q.id}`)).rows[0]!.status).toBe('qualified');
    const event = await t.db
      .selectFrom('audit_events')
      .select(['changes'])
      .where('action', '=', 'qualification.evaluation_signed')
      .executeTakeFirstOrThrow();
    expect(event.changes).toMatchObject({
      meaning: [null, 'Practical evaluation performed and passed'],
    });

    // The signature is kept as signed, whatever later happens to the account.
    await t.db
      .updateTable('accounts')
      .set({ email: 'renamed@example.com' })
      .where('id', '=', staff.account.id)
      .execute();
    const record = await t.app.inject({
      url: `/v1/vr-users/${trainee.id}/record`,
      headers: staff.headers,
    });
    const shown = record
      .json<TrainingRecord>()
      .qualifications.find((x) => x.qualification_id === q.id)!;
    expect(shown.status).toBe('qualified');
    expect(shown.history.find((entry) => entry.kind === 'evaluation')).toMatchObject({
      signer_email: staff.account.email,
      meaning: 'Practical evaluation performed and passed',
      result: 'pass',
    });
    await t.db
      .updateTable('accounts')
      .set({ email: staff.account.email })
      .where('id', '=', staff.account.id)
      .execute();
  });

  it('takes a fresh sign-in at the identity provider instead of a password, once', async () => {
    const level = await grantedLevel();
    const q = await createQualification({
      name: 'Crane signal person',
      level_ids: [level.id],
      validity_days: 365,
      evaluation_required: true,
    });
    const trainee = await makeVrUser(t.db, staff.organization.id);
    await assign(q.id, [trainee.id]);
    await passLevel(trainee.id, level.id, ago(2));
    const sign = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/vr-users/${trainee.id}/evaluations`,
        headers: staff.headers,
        payload: { qualification_id: q.id, result: 'pass', meaning: 'Observed and passed' },
      });
    const fresh = (until: Date) =>
      t.db
        .updateTable('auth_tokens')
        .set({ sso_protocol: 'oidc', sso_fresh_until: until })
        .where('account_id', '=', staff.account.id)
        .execute();
    expect((await sign()).json().error).toBe('signature_rejected');
    // GET /v1/auth/sso/reauth leaves this on the session (src/sso/oidc-sign-in.test.ts).
    await fresh(new Date(t.clock.now().getTime() - 1000));
    expect((await sign()).json().error).toBe('signature_rejected');
    await fresh(new Date(t.clock.now().getTime() + 60_000));
    const signed = await sign();
    expect(signed.statusCode, signed.body).toBe(201);
    const again = await sign();
    expect(again.statusCode).toBe(403);
    const event = await t.db
      .selectFrom('audit_events')
      .select(['changes'])
      .where('action', '=', 'qualification.evaluation_signed')
      .where('target_id', '=', q.id)
      .executeTakeFirstOrThrow();
    expect(event.changes).toMatchObject({ authenticated_by: [null, 'single sign-on'] });
  });

  it('keeps what was done when the level is renamed, and shows archived ones in the record', async () => {
    const level = await grantedLevel();
    const q = await createQualification({
      name: 'Crane',
      level_ids: [level.id],
      validity_days: 365,
    });
    const trainee = await makeVrUser(t.db, staff.organization.id);
    await passLevel(trainee.id, level.id, ago(1), level.name);
    await t.db.updateTable('levels').set({ name: 'Renamed' }).where('id', '=', level.id).execute();
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/qualifications/${q.id}`,
      headers: staff.headers,
    });
    const record = await t.app.inject({
      url: `/v1/vr-users/${trainee.id}/record`,
      headers: staff.headers,
    });
    const shown = record.json<TrainingRecord>().qualifications;
    // What was done keeps the name it was done under.
    expect(record.json<TrainingRecord>().levels.map((row) => row.level_name)).toEqual(['Forks']);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      qualification_id: q.id,
      archived: true,
      assigned: false,
      status: 'qualified',
      earned_at: ago(1).toISOString(),
    });
    expect(shown[0]!.history.map((entry) => entry.kind)).toEqual(['award']);
    const certificate = await t.app.inject({
      url: `/v1/certificates/${shown[0]!.certificate_code}`,
    });
    expect(certificate.json()).toMatchObject({ status: 'valid', qualification_name: 'Crane' });
  });

  it('streams the compliance CSV for its reader, formula-safe, as before for none', async () => {
    const level = await grantedLevel();
    const q = await createQualification({
      name: 'Welding',
      level_ids: [level.id],
      validity_days: 365,
    });
    const ann = await makeVrUser(t.db, staff.organization.id, { name: 'Ann' });
    const trick = await makeVrUser(t.db, staff.organization.id, { name: '=HYPERLINK("x")' });
    await passLevel(ann.id, level.id, ago(10));
    await assign(q.id, [ann.id, trick.id], ago(2).toISOString());
    const listed = await compliance(`qualification_id=${q.id}&sort=vr_user_name`);
    const annRow = listed.rows.find((row) => row.vr_user_id === ann.id)!;
    const moscow = (iso: string | null) =>
      new Date(Date.parse(iso!) + 180 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const file = async (query: string) => {
      const csv = await t.app.inject({
        url: `/v1/compliance/export?qualification_id=${q.id}&sort=vr_user_name&${query}`,
        headers: staff.headers,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.startsWith('\uFEFF')).toBe(true);
      return csv.body.slice(1);
    };

    // A Russian reader's file as Russian Excel opens it: `;` between cells, words, Moscow times.
    const ru = Papa.parse<string[]>(await file('lang=ru&utc_offset=180'), {
      delimiter: ';',
      skipEmptyLines: true,
    }).data;
    expect(ru[0]).toEqual([
      'Обучаемый',
      'Квалификация',
      'Статус',
      'Получена (UTC+03:00)',
      'Действует до (UTC+03:00)',
      'Срок (UTC+03:00)',
      'Просрочено',
      'Сертификат',
    ]);
    expect(ru.slice(1).map((row) => row.slice(0, 3).concat(row[6]!))).toEqual([
      ['\'=HYPERLINK("x")', 'Welding', 'Не допущен', 'да'],
      ['Ann', 'Welding', 'Допущен', 'нет'],
    ]);
    expect(ru[2]!.slice(3, 6)).toEqual([
      moscow(annRow.earned_at),
      moscow(annRow.valid_until),
      moscow(annRow.due_at),
    ]);
    // A code is 43 random base64url characters: one in 64 begins with '-', and is written
    // formula-safe like any cell that does.
    const codeAsWritten = neutralizeCsvCell(annRow.certificate_code);
    expect(ru[2]![7]).toBe(codeAsWritten);

    // An English reader's: commas, English words, times in UTC named so.
    const en = Papa.parse<string[]>(await file('lang=en'), { skipEmptyLines: true }).data;
    expect(en[0]!.slice(2, 7)).toEqual([
      'Status',
      'Earned At (UTC)',
      'Valid Until (UTC)',
      'Due At (UTC)',
      'Overdue',
    ]);
    expect(en[2]!.slice(2, 4)).toEqual([
      'Qualified',
      annRow.earned_at!.slice(0, 19).replace('T', ' '),
    ]);
    // Accept-Language names the reader when the query does not.
    const accepted = await t.app.inject({
      url: `/v1/compliance/export?qualification_id=${q.id}`,
      headers: { ...staff.headers, 'accept-language': 'ru-RU,ru;q=0.9' },
    });
    expect(accepted.body.slice(1)).toMatch(/^Обучаемый;Квалификация;Статус;Получена \(UTC\);/);

    // No language named: the file exactly as it always was.
    expect(await file('')).toBe(
      'Обучаемый,Квалификация,Статус,Получена,Действует до,Срок,Просрочено,Сертификат\r\n' +
        `"'=HYPERLINK(""x"")",Welding,Не допущен,,,${annRow.due_at},да,\r\n` +
        `Ann,Welding,Допущен,${annRow.earned_at},${annRow.valid_until},${annRow.due_at},нет,` +
        `${codeAsWritten}\r\n`,
    );
  });

  it('answers 404 for an unknown certificate, and is rate limited', async () => {
    const unknown = await t.app.inject({ url: `/v1/certificates/${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
    let last = 200;
    for (let i = 0; i < 61; i += 1) {
      last = (await t.app.inject({ url: `/v1/certificates/${'B'.repeat(43)}` })).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('tenancy', () => {
  it('answers 404 to another organisation on every qualification route', async () => {
    const level = await grantedLevel();
    const q = await createQualification({ name: 'Ours', level_ids: [level.id] });
    const trainee = await makeVrUser(t.db, staff.organization.id);
    await assign(q.id, [trainee.id]);
    const other = await makeTenant(t);
    const otherTrainee = await makeVrUser(t.db, other.organization.id);
    const otherLevel = await grantedLevel(other.organization.id);
    const otherQ = await createQualification(
      { name: 'Theirs', level_ids: [otherLevel.id] },
      other.headers,
    );
    const calls: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'GET', url: `/v1/qualifications/${q.id}` },
      { method: 'PUT', url: `/v1/qualifications/${q.id}`, payload: { name: 'Hijacked' } },
      { method: 'DELETE', url: `/v1/qualifications/${q.id}` },
      {
        method: 'POST',
        url: `/v1/qualifications/${q.id}/assignments`,
        payload: { vr_user_ids: [otherTrainee.id] },
      },
      {
        method: 'POST',
        url: `/v1/qualifications/${otherQ.id}/assignments`,
        payload: { vr_user_ids: [trainee.id] },
      },
      { method: 'DELETE', url: `/v1/qualifications/${q.id}/assignments/${trainee.id}` },
      {
        method: 'POST',
        url: `/v1/vr-users/${trainee.id}/evaluations`,
        payload: {
          qualification_id: otherQ.id,
          result: 'pass',
          meaning: 'x',
          password: TEST_PASSWORD,
        },
      },
      {
        method: 'POST',
        url: `/v1/vr-users/${otherTrainee.id}/evaluations`,
        payload: { qualification_id: q.id, result: 'pass', meaning: 'x', password: TEST_PASSWORD },
      },
      {
        method: 'POST',
        url: `/v1/vr-users/${trainee.id}/qualifications/${q.id}/revoke`,
        payload: { reason: 'x' },
      },
    ];
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: other.headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json().error).toBe('not_found');
    }
    const theirs = await t.app.inject({
      url: `/v1/compliance?qualification_id=${q.id}`,
      headers: other.headers,
    });
    expect(theirs.json().rows).toEqual([]);
    expect(
      (await t.app.inject({ url: `/v1/qualifications/${q.id}`, headers: staff.headers })).json(),
    ).toMatchObject({
      name: 'Ours',
      assigned_count: 1,
    });
  });
});
