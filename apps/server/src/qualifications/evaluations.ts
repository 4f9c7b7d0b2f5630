import type { Evaluation, EvaluationBody, Revocation, RevokeBody } from '@vrtc/contract';
import { confirmOwnPassword } from '../auth/auth.service.ts';
import { takeFreshAuthentication } from '../auth/fresh-authentication.ts';
import type { Caller } from '../platform/http/caller.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso, textOrNull } from '../platform/service/serialize.ts';
import { isHeld, standingAt } from './derive.ts';
import { noticeOnce } from './notices.ts';
import {
  awardKey,
  certificateCodes,
  pieceRecords,
  qualificationFacts,
  recordOf,
} from './standing.ts';

/**
 * The pieces staff add to the record by hand: a signed practical evaluation, and a revocation.
 * Each is written once and never edited; its audit event goes in its transaction.
 */

/** The trainee and the qualification, both of the caller's organisation (else 404). */
async function pairOf(trx: Db | Tx, caller: Caller, vrUserId: string, qualificationId: string) {
  const [vrUser, qualification] = await Promise.all([
    trx
      .selectFrom('vr_users')
      .select(['id', 'name'])
      .where('id', '=', vrUserId)
      .where('organization_id', '=', caller.organizationId)
      .executeTakeFirst(),
    trx
      .selectFrom('qualifications')
      .select(['id', 'name', 'name_en'])
      .where('id', '=', qualificationId)
      .where('organization_id', '=', caller.organizationId)
      .where('archived_at', 'is', null)
      .executeTakeFirst(),
  ]);
  if (!vrUser) throw notFound('VR user');
  if (!qualification) throw notFound('Qualification');
  return { vrUser, qualification };
}

/**
 * Signs an evaluation (21 CFR 11.50, 11.200): the signer re-enters its own password, checked and
 * counted as a sign-in's, or has just re-authenticated at its identity provider (single sign-on,
 * auth/fresh-authentication.ts); a wrong one stores nothing. The signature shows the signer's name (an
 * account's name is its email), email, the moment and its meaning, as they were when signed.
 */
export async function signEvaluation(
  ctx: ServiceContext,
  caller: Caller,
  vrUserId: string,
  body: EvaluationBody,
  clientAddress: string,
): Promise<Evaluation> {
  await pairOf(ctx.db, caller, vrUserId, body.qualification_id);
  if (body.password === undefined) {
    // An account of single sign-on re-authenticated at its provider a moment ago (used once).
    if (!(await takeFreshAuthentication(ctx, caller))) {
      throw new AppError(
        'signature_rejected',
        'Give your password, or sign in again at your identity provider (GET /v1/auth/sso/reauth): nothing was signed',
      );
    }
  } else if (!(await confirmOwnPassword(ctx, caller, body.password, clientAddress))) {
    throw new AppError('signature_rejected', 'The password is wrong: nothing was signed');
  }
  const signedAt = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const { vrUser, qualification } = await pairOf(trx, caller, vrUserId, body.qualification_id);
    const row = await trx
      .insertInto('qualification_evaluations')
      .values({
        organization_id: caller.organizationId,
        qualification_id: qualification.id,
        vr_user_id: vrUser.id,
        result: body.result,
        meaning: body.meaning.trim(),
        notes: textOrNull(body.notes),
        signer_account_id: caller.accountId,
        signer_name: caller.email,
        signer_email: caller.email,
        signed_at: signedAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: signedAt,
      action: 'qualification.evaluation_signed',
      target: {
        type: 'qualification',
        id: qualification.id,
        label: qualification.name,
        labelEn: qualification.name_en,
      },
      changes: {
        vr_user_id: [null, vrUser.id],
        vr_user_name: [null, vrUser.name],
        result: [null, row.result],
        meaning: [null, row.meaning],
        signer_email: [null, row.signer_email],
        signed_at: [null, iso(signedAt)],
        // How the signer proved itself: its password, or a fresh sign-in at its provider.
        authenticated_by: [null, body.password === undefined ? 'single sign-on' : 'password'],
      },
    });
    await noticeAward(trx, caller.organizationId, vrUser, qualification.id, signedAt);
    return toEvaluation(row);
  });
}

/** The signature completed the set of pieces: qualification.earned, with the signature. */
async function noticeAward(
  trx: Tx,
  organizationId: string,
  vrUser: { id: string; name: string },
  qualificationId: string,
  at: Date,
) {
  const qualification = (await qualificationFacts(trx, organizationId, [qualificationId])).get(
    qualificationId,
  )!;
  const records = await pieceRecords(trx, organizationId, [vrUser.id], [qualificationId]);
  const standing = standingAt(
    qualification.requirement,
    recordOf(records, vrUser.id, qualificationId),
    at,
  );
  if (!isHeld(standing.status) || standing.earnedAt?.getTime() !== at.getTime()) return;
  const award = { vrUserId: vrUser.id, qualificationId, earnedAt: at };
  const codes = await certificateCodes(trx, organizationId, [award]);
  await noticeOnce(
    trx,
    {
      organizationId,
      vrUser,
      qualification,
      state: 'earned',
      moment: at,
      standing,
      certificateCode: codes.get(awardKey(award)) ?? null,
    },
    at,
  );
}

export const toEvaluation = (row: {
  id: string;
  vr_user_id: string;
  qualification_id: string;
  result: 'pass' | 'fail';
  meaning: string;
  notes: string | null;
  signer_name: string;
  signer_email: string;
  signed_at: Date;
}): Evaluation => ({
  id: row.id,
  vr_user_id: row.vr_user_id,
  qualification_id: row.qualification_id,
  result: row.result,
  meaning: row.meaning,
  notes: row.notes,
  signer_name: row.signer_name,
  signer_email: row.signer_email,
  signed_at: iso(new Date(row.signed_at)),
});

/** Takes the qualification away: revoked until pieces are done again after this moment. */
export async function revoke(
  ctx: ServiceContext,
  caller: Caller,
  vrUserId: string,
  qualificationId: string,
  body: RevokeBody,
): Promise<Revocation> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const { vrUser, qualification } = await pairOf(trx, caller, vrUserId, qualificationId);
    const reason = body.reason.trim();
    const row = await trx
      .insertInto('qualification_revocations')
      .values({
        organization_id: caller.organizationId,
        qualification_id: qualification.id,
        vr_user_id: vrUser.id,
        reason,
        revoked_at: now,
        revoked_by_account_id: caller.accountId,
        revoked_by_email: caller.email,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'qualification.revoked',
      target: {
        type: 'qualification',
        id: qualification.id,
        label: qualification.name,
        labelEn: qualification.name_en,
      },
      changes: {
        vr_user_id: [null, vrUser.id],
        vr_user_name: [null, vrUser.name],
        reason: [null, reason],
      },
    });
    await noticeOnce(
      trx,
      {
        organizationId: caller.organizationId,
        vrUser,
        qualification: {
          id: qualification.id,
          name: qualification.name,
          nameEn: qualification.name_en,
        },
        state: 'revoked',
        moment: now,
        standing: { status: 'revoked', earnedAt: null, validUntil: null },
        certificateCode: null,
        reason,
      },
      now,
    );
    return {
      id: row.id,
      vr_user_id: vrUser.id,
      qualification_id: qualification.id,
      reason,
      revoked_at: iso(now),
      revoked_by_email: caller.email,
    };
  });
}
