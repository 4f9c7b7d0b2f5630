import { sql } from 'kysely';
import type { Tx } from '../platform/database/db.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { noReport, startRepeatingJob, type JobReport } from '../platform/ops/job-monitor.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { mailerOf, type Mailer } from '../platform/service/mail.ts';
import { DAY_MS } from './derive.ts';
import { digestEntries } from './digest.ts';
import { digestMail } from './digest-text.ts';

/**
 * The daily qualifications digest by email (decision 033). Once per organisation and UTC day, on
 * any number of processes: the process whose insert of the day's qualification_digests row wins
 * writes the day's mails in that same transaction; every other process, and the same one after a
 * restart, finds the row and writes nothing. Mails are then sent one at a time, each taken by a
 * conditional update (one sender at a time) and marked sent once the SMTP server took it.
 */

const MAX_ATTEMPTS = 5;
const CLAIM_MS = 10 * 60 * 1000;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Staff who get the digest: active accounts of the organisation that did not turn it off. */
function recipients(trx: Tx, organizationId: string) {
  return trx
    .selectFrom('accounts')
    .select(['id', 'email', 'language'])
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .where('role', 'in', ['client', 'admin'])
    .where('qualification_digest', '=', true)
    .orderBy('email')
    .execute();
}

/** Claims the organisation's digest of `day` and writes its mails; false when claimed before. */
async function claimDigest(
  ctx: ServiceContext,
  organization: { id: string; name: string },
  now: Date,
): Promise<boolean> {
  const day = utcDay(now);
  return ctx.db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('qualification_digests')
      .select(sql<Date | null>`max(window_to)`.as('window_to'))
      .where('organization_id', '=', organization.id)
      .executeTakeFirst();
    const from = last?.window_to ? new Date(last.window_to) : new Date(now.getTime() - DAY_MS);
    const claimed = await trx
      .insertInto('qualification_digests')
      .values({
        organization_id: organization.id,
        day,
        window_from: from,
        window_to: now,
        entries: 0,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('day')
      .executeTakeFirst();
    if (!claimed) return false;
    const entries = await digestEntries(trx, organization.id, from, now);
    await trx
      .updateTable('qualification_digests')
      .set({ entries: entries.length })
      .where('organization_id', '=', organization.id)
      .where('day', '=', day)
      .execute();
    if (entries.length === 0) return true;
    const mails = (await recipients(trx, organization.id)).map((account) => ({
      account,
      ...digestMail(
        account.language ?? 'ru',
        organization.name,
        entries,
        day,
        ctx.config.publicUrl,
      ),
    }));
    if (mails.length === 0) return true;
    await trx
      .insertInto('qualification_digest_mails')
      .values(
        mails.map((mail) => ({
          organization_id: organization.id,
          day,
          account_id: mail.account.id,
          recipient: mail.account.email,
          subject: mail.subject,
          body: mail.text,
          created_at: now,
        })),
      )
      .execute();
    return true;
  });
}

/** Sends every mail not yet sent that no other process holds; answers how many were sent. */
export async function sendDigestMails(ctx: ServiceContext, mailer: Mailer): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .selectFrom('qualification_digest_mails')
    .select('id')
    .where('sent_at', 'is', null)
    .where('attempts', '<', MAX_ATTEMPTS)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('created_at')
    .limit(200)
    .execute();
  let sent = 0;
  for (const { id } of due) {
    const mail = await ctx.db
      .updateTable('qualification_digest_mails')
      .set({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returning(['recipient', 'subject', 'body'])
      .executeTakeFirst();
    if (!mail) continue;
    try {
      await mailer.send({ to: mail.recipient, subject: mail.subject, text: mail.body });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await ctx.db
        .updateTable('qualification_digest_mails')
        .set({ last_error: message.slice(0, 500) })
        .where('id', '=', id)
        .execute();
      ctx.log.warn(
        { err: error },
        'a qualifications digest mail was not taken; trying again later',
      );
      continue;
    }
    await ctx.db
      .updateTable('qualification_digest_mails')
      .set({ sent_at: ctx.clock.now() })
      .where('id', '=', id)
      .execute();
    sent += 1;
  }
  return sent;
}

/** One run: claims today's digest of every organisation not yet done, then sends what is due. */
export async function runQualificationDigest(ctx: ServiceContext, mailer: Mailer) {
  const now = ctx.clock.now();
  const day = utcDay(now);
  const organizations = await ctx.db
    .selectFrom('organizations as o')
    .select(['o.id', 'o.name'])
    .where('o.active', '=', true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('qualification_digests as d')
            .select('d.day')
            .whereRef('d.organization_id', '=', 'o.id')
            .where('d.day', '=', day),
        ),
      ),
    )
    .execute();
  let claimed = 0;
  for (const organization of organizations) {
    if (await claimDigest(ctx, organization, now)) claimed += 1;
  }
  return { claimed, sent: await sendDigestMails(ctx, mailer) };
}

const RUN_EVERY_MS = 15 * 60 * 1000;
const FIRST_AFTER_MS = 60_000;

/** Every fifteen minutes in every process, when SMTP_URL is set; without it, nothing runs. */
export function startQualificationDigest(
  app: AppInstance,
  ctx: ServiceContext,
  report: JobReport = noReport,
) {
  const mailer = mailerOf(ctx.config);
  if (!mailer) return;
  startRepeatingJob(app, ctx.log, report, {
    job: 'qualification_digest',
    everyMs: RUN_EVERY_MS,
    firstAfterMs: FIRST_AFTER_MS,
    run: async () => {
      await runQualificationDigest(ctx, mailer);
    },
    failureMessage: 'qualifications digest failed; retrying in fifteen minutes',
  });
  app.addHook('onClose', async () => mailer.close());
}
