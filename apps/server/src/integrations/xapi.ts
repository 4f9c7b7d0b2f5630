import crypto from 'node:crypto';
import type { SessionFinishedData } from '@vrtc/contract';

/**
 * A finished session as xAPI 1.0.3 statements (docs/integrations.md, "xAPI mapping"). Statement
 * ids are UUID v5 of the session id and the verb, so a retry (or a redelivery) posts the same ids
 * and the learning record store keeps one copy.
 */
export const XAPI_VERSION = '1.0.3';

/** The namespace of this product's statement ids (a fixed random UUID; never change it). */
const STATEMENT_NAMESPACE = '6f1c3a52-8d0e-4b7a-9f43-2c5d8e1a7b90';

const VERBS = {
  completed: { 'en-US': 'completed', 'ru-RU': 'завершил' },
  passed: { 'en-US': 'passed', 'ru-RU': 'сдал' },
  failed: { 'en-US': 'failed', 'ru-RU': 'не сдал' },
  terminated: { 'en-US': 'terminated', 'ru-RU': 'прервал' },
} as const;
type Verb = keyof typeof VERBS;

/** RFC 4122 version 5 (SHA-1, name-based) UUID. */
export function uuidV5(name: string, namespace = STATEMENT_NAMESPACE): string {
  const ns = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  const hash = crypto.createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const statementId = (sessionId: string, verb: Verb) => uuidV5(`${sessionId}/${verb}`);

/** ISO 8601 duration of whole seconds (PT1H2M3S). */
export function isoDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

export interface XapiOptions {
  /** The console's public URL: the actor account's homePage and the activities' base. */
  homePage: string;
  /** The trainee's name in the actor; without it only their id. */
  includeNames: boolean;
}

const languageMap = (name: string, nameEn: string | null) => ({
  'ru-RU': name,
  'en-US': nameEn ?? name,
});

/** The statements of one finished session, in the order they are posted. */
export function sessionStatements(data: SessionFinishedData, options: XapiOptions): object[] {
  const base = options.homePage.replace(/\/+$/, '');
  const activity = (kind: string, id: string | null, name: string, nameEn: string | null) => ({
    objectType: 'Activity',
    id: `${base}/xapi/activities/${kind}/${id ?? `unknown-${data.session_id}`}`,
    definition: {
      name: languageMap(name, nameEn),
      type: 'http://adlnet.gov/expapi/activities/' + (kind === 'level' ? 'lesson' : 'module'),
    },
  });
  const actor = {
    objectType: 'Agent',
    account: { homePage: base, name: data.vr_user.id ?? `session-${data.session_id}` },
    ...(options.includeNames && data.vr_user.name ? { name: data.vr_user.name } : {}),
  };
  const object = activity('level', data.level.id, data.level.name, data.level.name_en);
  const context = {
    registration: data.session_id,
    platform: `${data.device.type}: ${data.device.name}`,
    contextActivities: {
      parent: [activity('module', data.module.id, data.module.name, data.module.name_en)],
      grouping: [activity('scenario', data.scenario.id, data.scenario.name, data.scenario.name_en)],
    },
  };
  const statement = (verb: Verb, result: object) => ({
    id: statementId(data.session_id, verb),
    actor,
    verb: { id: `http://adlnet.gov/expapi/verbs/${verb}`, display: VERBS[verb] },
    object,
    result,
    context,
    timestamp: data.ended_at,
  });
  const duration = isoDuration(data.duration_seconds);
  if (data.status !== 'completed') {
    return [statement('terminated', { completion: false, duration })];
  }
  const score =
    data.max_tasks > 0
      ? {
          score: {
            scaled: Math.min(1, data.completed_tasks / data.max_tasks),
            raw: data.completed_tasks,
            min: 0,
            max: data.max_tasks,
          },
        }
      : {};
  const result = { success: data.success, completion: true, duration, ...score };
  return [
    statement('completed', result),
    statement(data.success ? 'passed' : 'failed', { success: data.success, ...score, duration }),
  ];
}
