import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../platform/config/config.ts';
import type { Db } from '../platform/database/db.ts';
import { hashPassword } from '../auth/passwords.ts';
import { SYSTEM, createdChanges, recordAudit } from '../audit/audit.ts';
import { systemClock, type Clock } from '../platform/service/clock.ts';

export const FIRST_ORGANIZATION_NAME = 'Platform';
/** Arbitrary constant shared by every process of this product: "one first-admin creator". */
const FIRST_ADMIN_LOCK_KEY = 7_310_004;

/**
 * On a database with no accounts, creates the first admin (and its organisation) from
 * ADMIN_EMAIL / ADMIN_PASSWORD, or admin@example.com with a generated password printed once.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
) {
  const existing = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (existing) return undefined;
  const email = config.adminEmail;
  const generated = config.adminPassword === undefined;
  const password = config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password, config.passwordHashCost);
  const created = await db.transaction().execute(async (trx) => {
    // Another process may be creating it at this very moment (nodes starting together on an
    // empty database): they take turns, and the next one finds it. (FOR UPDATE below locks
    // nothing while the table is empty.)
    await sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`.execute(trx);
    const again = await trx
      .selectFrom('accounts')
      .select('id')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (again) return false;
    const organization = await trx
      .insertInto('organizations')
      .values({ name: FIRST_ORGANIZATION_NAME })
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = await trx
      .insertInto('accounts')
      .values({
        email,
        password_hash: passwordHash,
        role: 'admin',
        organization_id: organization.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The server decided this (no one was signed in): the system is the actor.
    const at = clock.now();
    const by = { ...SYSTEM, organizationId: organization.id };
    await recordAudit(trx, {
      by,
      at,
      action: 'organization.created',
      target: { type: 'organization', id: organization.id, label: FIRST_ORGANIZATION_NAME },
      changes: createdChanges({ name: FIRST_ORGANIZATION_NAME, active: true }),
    });
    await recordAudit(trx, {
      by,
      at,
      action: 'account.created',
      target: { type: 'account', id: account.id, label: email },
      changes: createdChanges({
        email,
        role: 'admin',
        organization_id: organization.id,
        password: passwordHash,
      }),
    });
    return true;
  });
  if (!created) return undefined;
  if (generated) {
    log.warn(
      `First admin created: ${email} with password ${password} (shown once; change it after signing in)`,
    );
  } else {
    log.info(`First admin created: ${email}`);
  }
  return { email, password };
}
