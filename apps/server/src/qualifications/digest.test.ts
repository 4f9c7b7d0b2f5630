import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { mailerOf } from '../platform/service/mail.ts';
import { bearer, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeAccount,
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
} from '../../test/factories.ts';
import { runQualificationDigest } from './digest-job.ts';

/**
 * The daily digest reaches a real SMTP server on 127.0.0.1 (smtp-server), and what arrived is
 * parsed back (mailparser): one mail per staff account and day, the right trainees, in the
 * account's language, none to an account that turned it off nor to an auditor, and two processes
 * running the job at once send it once.
 */
const DAY = 24 * 3600 * 1000;
const received: ParsedMail[] = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({
    config: {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      mailFrom: 'VR training <training@example.org>',
      publicUrl: 'https://console.example.org',
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

async function forkliftQualification(staff: Awaited<ReturnType<typeof makeTenant>>) {
  const tree = await makeScenarioTree(t.db);
  await grantAccess(t.db, tree.scenario.id, staff.organization.id, null, t.clock.now());
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/qualifications',
    headers: staff.headers,
    payload: {
      name: 'Погрузчик',
      name_en: 'Forklift',
      level_ids: [tree.level.id],
      validity_days: 10,
      expiring_within_days: 5,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json<{ id: string }>().id, levelId: tree.level.id };
}

async function assign(staff: { headers: Record<string, string> }, id: string, body: object) {
  const assigned = await t.app.inject({
    method: 'POST',
    url: `/v1/qualifications/${id}/assignments`,
    headers: staff.headers,
    payload: body,
  });
  expect(assigned.statusCode, assigned.body).toBeLessThan(300);
}

describe('the qualifications digest', () => {
  it('mails each staff account once a day: the trainees who became expiring, expired, overdue', async () => {
    const staff = await makeTenant(t, { organizationName: 'Склад №1' });
    const english = await makeAccount(t.db, { organization_id: staff.organization.id });
    await t.db
      .updateTable('accounts')
      .set({ language: 'en' })
      .where('id', '=', english.id)
      .execute();
    const quiet = await makeAccount(t.db, { organization_id: staff.organization.id });
    const quietHeaders = bearer((await issueToken(t, quiet.id)).token);
    await makeAccount(t.db, { organization_id: staff.organization.id, role: 'auditor' });
    const optedOut = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/settings',
      headers: quietHeaders,
      payload: { qualification_digest: false },
    });
    expect(optedOut.json()).toEqual({
      qualification_digest: false,
      language: null,
      mail_configured: true,
    });

    const qualification = await forkliftQualification(staff);
    const anna = await makeVrUser(t.db, staff.organization.id, { name: 'Анна' });
    const boris = await makeVrUser(t.db, staff.organization.id, { name: 'Борис' });
    const now = t.clock.now().getTime();
    await assign(staff, qualification.id, { vr_user_ids: [anna.id] });
    await assign(staff, qualification.id, {
      vr_user_ids: [boris.id],
      due_at: new Date(now + 2 * DAY).toISOString(),
    });
    await makeSession(t.db, {
      organizationId: staff.organization.id,
      vrUserId: anna.id,
      levelId: qualification.levelId,
      status: 'completed',
      startedAt: new Date(now - 600_000),
    });
    const ctx = contextOf(t);
    const mailer = () => mailerOf(t.config)!;
    const twoNodes = () =>
      Promise.all([runQualificationDigest(ctx, mailer()), runQualificationDigest(ctx, mailer())]);
    const mine = () => received.filter((mail) => mail.text?.includes('Склад №1'));

    // Today: Anna is qualified, Boris not yet due. The day's digest is claimed, with nothing to tell.
    await twoNodes();
    expect(mine()).toHaveLength(0);

    // Six days on: Anna's qualification expires in four days, Boris is overdue.
    t.clock.advance(6 * DAY);
    await twoNodes();
    await twoNodes();
    expect(
      mine()
        .map((mail) => mail.to && 'text' in mail.to && mail.to.text)
        .sort(),
    ).toEqual([staff.account.email, english.email].sort());
    const russian = mine().find(
      (mail) => mail.to && 'text' in mail.to && mail.to.text === staff.account.email,
    )!;
    expect(russian.from?.text).toBe('"VR training" <training@example.org>');
    expect(russian.subject).toContain('Квалификации: изменений — 2');
    expect(russian.text).toContain('Скоро истекает (1):\n- Анна — Погрузчик, действует до');
    expect(russian.text).toContain('Не получена к сроку (1):\n- Борис — Погрузчик, срок');
    expect(russian.text).toContain('https://console.example.org/compliance');
    const inEnglish = mine().find(
      (mail) => mail.to && 'text' in mail.to && mail.to.text === english.email,
    )!;
    expect(inEnglish.subject).toContain('Qualifications: 2 changes');
    expect(inEnglish.text).toContain('Expiring soon (1):\n- Анна — Forklift, valid until');
    expect(inEnglish.text).toContain('Overdue (1):\n- Борис — Forklift, due');

    // The next day nothing new happened: a digest is claimed, no mail goes out.
    t.clock.advance(1 * DAY);
    await twoNodes();
    expect(mine()).toHaveLength(2);

    // Anna's lapses on day ten: told once, as expired; Boris is not told again.
    t.clock.advance(3 * DAY);
    await twoNodes();
    expect(mine()).toHaveLength(4);
    const lapsed = mine().at(-1)!;
    expect(lapsed.text).toMatch(/(Истекла|Expired) \(1\):\n- Анна/);
    expect(lapsed.text).not.toContain('Борис');
    const stored = await t.db
      .selectFrom('qualification_digest_mails')
      .select(['recipient', 'sent_at'])
      .where('organization_id', '=', staff.organization.id)
      .execute();
    expect(stored).toHaveLength(4);
    expect(stored.every((mail) => mail.sent_at !== null)).toBe(true);
  });

  it('answers the account its setting, and whether the server sends mail at all', async () => {
    const staff = await makeTenant(t);
    const read = await t.app.inject({
      method: 'GET',
      url: '/v1/me/settings',
      headers: staff.headers,
    });
    expect(read.json()).toEqual({
      qualification_digest: true,
      language: null,
      mail_configured: true,
    });
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/settings',
      headers: staff.headers,
      payload: { language: 'en' },
    });
    expect(changed.json()).toEqual({
      qualification_digest: true,
      language: 'en',
      mail_configured: true,
    });
  });
});
