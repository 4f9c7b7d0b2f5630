import { DAY_MS } from '@vrtc/contract';
import type { Clock } from '@vrtc/server/platform/service/clock.ts';
import type { Db, Tx } from '@vrtc/server/platform/database/db.ts';
import type { NewSession } from '@vrtc/server/platform/database/schema.ts';
import type { DemoSeed, SeededLevel } from './demo.seed.ts';

/**
 * The demo's qualifications (docs/compliance.md): two of them, one needing a signed practical
 * evaluation, and trainees of their own (so the random history never touches their record) in
 * every status the compliance view shows: qualified, expiring, expired, pending_evaluation,
 * not_qualified, revoked, and an overdue assignment. Statuses are never stored: each trainee gets
 * the sessions, evaluations and revocations that make the rules derive it, placed relative to
 * `clock.now()`.
 */

export const DEMO_QUALIFICATIONS = {
  forklift: {
    name: 'Допуск к работе на погрузчике',
    name_en: 'Forklift operation permit',
    description: 'Теория и вождение в VR, затем практическая проверка на площадке.',
    validity_days: 365,
    expiring_within_days: 30,
    evaluation_required: true,
  },
  fire: {
    name: 'Пожарная безопасность',
    name_en: 'Fire safety',
    description: 'Ежегодный тренинг по эвакуации и первичным средствам пожаротушения.',
    validity_days: 180,
    expiring_within_days: 30,
    evaluation_required: false,
  },
} as const;

type QualificationKey = keyof typeof DEMO_QUALIFICATIONS;

/** Each trainee, the status the record makes theirs, and what the record holds (days ago). */
export const DEMO_QUALIFIED_TRAINEES = [
  {
    name: 'Орлов Виктор',
    qualification: 'forklift',
    status: 'qualified',
    levels: [60, 58],
    passedDaysAgo: 50,
  },
  { name: 'Белова Анна', qualification: 'fire', status: 'expiring', levels: [160] },
  { name: 'Фёдоров Павел', qualification: 'fire', status: 'expired', levels: [200] },
  {
    name: 'Никитина Елена',
    qualification: 'forklift',
    status: 'pending_evaluation',
    levels: [10, 9],
  },
  { name: 'Зайцев Олег', qualification: 'forklift', status: 'not_qualified', levels: [5] },
  {
    name: 'Соколова Ирина',
    qualification: 'fire',
    status: 'revoked',
    levels: [30],
    revokedDaysAgo: 3,
  },
  {
    name: 'Лебедев Артём',
    qualification: 'forklift',
    status: 'not_qualified',
    levels: [],
    dueDaysAgo: 7,
  },
] as const satisfies readonly {
  name: string;
  qualification: QualificationKey;
  status: string;
  levels: readonly number[];
  passedDaysAgo?: number;
  revokedDaysAgo?: number;
  dueDaysAgo?: number;
}[];

export const REVOCATION_REASON = 'Нарушение правил безопасности на складе (акт № 14)';

/** Levels of scenarios the organisation may run now: forklift gets two, fire safety one. */
function levelsFor(seed: DemoSeed, now: Date): Record<QualificationKey, SeededLevel[]> {
  const usable = seed.levels.filter((level) => {
    if (!seed.demo.grants.has(level.scenarioKey)) return false;
    const expiry = seed.demo.grants.get(level.scenarioKey);
    return expiry === null || expiry! > now;
  });
  if (usable.length < 3) throw new Error('the demo organisation needs three usable levels');
  return { forklift: usable.slice(0, 2), fire: usable.slice(2, 3) };
}

function session(
  seed: DemoSeed,
  trainee: { id: string; name: string },
  level: SeededLevel,
  endedAt: Date,
): NewSession {
  const startedAt = new Date(endedAt.getTime() - 12 * 60_000);
  return {
    organization_id: seed.demo.id,
    device_id: null,
    vr_user_id: trainee.id,
    scenario_id: level.scenarioId,
    module_id: level.moduleId,
    level_id: level.levelId,
    started_by_account_id: seed.staff.id,
    device_name: 'Quest 3 — учебный класс',
    device_type: 'quest',
    vr_user_name: trainee.name,
    scenario_name: level.scenarioName.ru,
    module_name: level.moduleName.ru,
    level_name: level.levelName.ru,
    scenario_name_en: level.scenarioName.en,
    module_name_en: level.moduleName.en,
    level_name_en: level.levelName.en,
    level_number: level.levelNumber,
    max_tasks: level.maxTasks,
    selected_options: '[]',
    started_by_email: seed.staff.email,
    status: 'completed',
    completed_tasks: level.maxTasks,
    success: true,
    started_at: startedAt,
    ended_at: endedAt,
    duration_seconds: 720,
  };
}

async function insertQualifications(
  trx: Tx,
  seed: DemoSeed,
  levels: Record<QualificationKey, SeededLevel[]>,
  now: Date,
) {
  const ids = {} as Record<QualificationKey, string>;
  for (const key of Object.keys(DEMO_QUALIFICATIONS) as QualificationKey[]) {
    const row = await trx
      .insertInto('qualifications')
      .values({
        organization_id: seed.demo.id,
        ...DEMO_QUALIFICATIONS[key],
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('qualification_levels')
      .values(levels[key].map((level) => ({ qualification_id: row.id, level_id: level.levelId })))
      .execute();
    ids[key] = row.id;
  }
  return ids;
}

/** Writes the qualifications and their trainees' records; answers the qualifications' ids. */
export async function seedQualifications(db: Db, clock: Clock, seed: DemoSeed) {
  const now = clock.now();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const levels = levelsFor(seed, now);
  return db.transaction().execute(async (trx) => {
    const ids = await insertQualifications(trx, seed, levels, ago(250));
    for (const spec of DEMO_QUALIFIED_TRAINEES) {
      const trainee = await trx
        .insertInto('vr_users')
        .values({ organization_id: seed.demo.id, name: spec.name, created_at: ago(240) })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
      const qualificationId = ids[spec.qualification];
      const dueDaysAgo = 'dueDaysAgo' in spec ? spec.dueDaysAgo : undefined;
      await trx
        .insertInto('qualification_assignments')
        .values({
          qualification_id: qualificationId,
          vr_user_id: trainee.id,
          organization_id: seed.demo.id,
          due_at: dueDaysAgo === undefined ? null : ago(dueDaysAgo),
          assigned_at: ago(220),
        })
        .execute();
      const sessions = spec.levels.map((daysAgo, i) =>
        session(seed, trainee, levels[spec.qualification][i]!, ago(daysAgo)),
      );
      if (sessions.length > 0) await trx.insertInto('sessions').values(sessions).execute();
      if ('passedDaysAgo' in spec) {
        await trx
          .insertInto('qualification_evaluations')
          .values({
            organization_id: seed.demo.id,
            qualification_id: qualificationId,
            vr_user_id: trainee.id,
            result: 'pass',
            meaning: 'Практическая проверка на площадке пройдена',
            notes: 'Погрузчик Toyota 8FBE15, площадка №2',
            signer_account_id: seed.staff.id,
            signer_name: seed.staff.email,
            signer_email: seed.staff.email,
            signed_at: ago(spec.passedDaysAgo),
          })
          .execute();
      }
      if ('revokedDaysAgo' in spec) {
        await trx
          .insertInto('qualification_revocations')
          .values({
            organization_id: seed.demo.id,
            qualification_id: qualificationId,
            vr_user_id: trainee.id,
            reason: REVOCATION_REASON,
            revoked_at: ago(spec.revokedDaysAgo),
            revoked_by_account_id: seed.staff.id,
            revoked_by_email: seed.staff.email,
          })
          .execute();
      }
    }
    return ids;
  });
}
