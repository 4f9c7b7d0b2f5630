import { Type, type Static } from 'typebox';
import { Nullable, Role, Text, Timestamp, Uuid } from './common.ts';
import { neutralizeCsvCell } from './csv.ts';
import { IsoDate } from './stats.ts';

/**
 * The audit log (docs/logging.md): who changed what, when, from where, with what outcome. One
 * append-only record the server writes in the same transaction as the change it tells of; each
 * organisation's events (and the platform's, organisation null) form a hash chain that
 * GET /v1/admin/audit/verify checks.
 */

/**
 * Who acted: a console account, an enrolled headset, the server itself (the sweeper, a job), or
 * an organisation's directory through its SCIM token (docs/sso.md).
 */
export const AUDIT_ACTOR_TYPES = ['account', 'headset', 'system', 'scim_token'] as const;
export const AuditActorType = Type.Enum(AUDIT_ACTOR_TYPES);
export type AuditActorType = Static<typeof AuditActorType>;

/** success: it happened; failure: it was tried and failed (a wrong password); denied: refused access. */
export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export const AuditOutcome = Type.Enum(AUDIT_OUTCOMES);
export type AuditOutcome = Static<typeof AuditOutcome>;

/** What an event is about. */
export const AUDIT_TARGET_TYPES = [
  'account',
  'organization',
  'vr_user',
  'device',
  'enrollment_code',
  'session',
  'scenario',
  'module',
  'level',
  'level_option',
  'license',
  'app_build',
  'route',
  'audit_log',
  'integration',
  'qualification',
  'sso_config',
  'lms_package',
  'scim_token',
  'api_token',
] as const;
export const AuditTargetType = Type.Enum(AUDIT_TARGET_TYPES);
export type AuditTargetType = Static<typeof AuditTargetType>;

/**
 * Every action the log records, dotted `<thing>.<what happened>`. The list filter takes a prefix
 * (`session.` or `session`), so new actions of a thing are found by the filters already in use.
 */
export const AUDIT_ACTIONS = [
  // sign-in and access
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.password_changed',
  'auth.access_denied',
  // an account's own API tokens
  'api_token.created',
  'api_token.revoked',
  // second factors (the account's own; a platform admin's reset)
  'mfa.totp_enrolled',
  'mfa.totp_removed',
  'mfa.passkey_added',
  'mfa.passkey_removed',
  'mfa.recovery_codes_renewed',
  'mfa.recovery_code_used',
  'mfa.reset',
  'mfa.policy_updated',
  // console accounts (admin)
  'account.created',
  'account.updated',
  'account.deleted',
  'account.password_set',
  // organisations (admin)
  'organization.created',
  'organization.updated',
  'organization.deleted',
  // single sign-on (admin; sign-ins by the provider)
  'sso.configured',
  'sso.removed',
  'sso.scim_token_issued',
  'sso.scim_token_revoked',
  // VR users
  'vr_user.created',
  'vr_user.updated',
  'vr_user.deleted',
  // headsets and their enrolment
  'device.enrolled',
  'device.updated',
  'device.deleted',
  'enrollment_code.issued',
  'enrollment_code.renewed',
  'enrollment_code.revoked',
  // sessions
  'session.started',
  'session.cancelled',
  'session.progress',
  'session.finished',
  'session.late_result',
  'session.disconnected',
  'session.timed_out',
  // content (admin)
  'scenario.created',
  'scenario.updated',
  'scenario.deleted',
  'module.created',
  'module.updated',
  'module.deleted',
  'level.created',
  'level.updated',
  'level.deleted',
  'level_option.created',
  'level_option.updated',
  'level_option.deleted',
  // scenario access (licences)
  'license.granted',
  'license.revoked',
  // the VR app
  'app_build.uploaded',
  // the log itself
  'audit.purged',
  // integrations (results out: webhooks, xAPI)
  'integration.created',
  'integration.updated',
  'integration.deleted',
  'integration.secret_rotated',
  'integration.tested',
  'integration.redelivered',
  'integration.disabled',
  // qualifications (issue 37)
  'qualification.created',
  'qualification.updated',
  'qualification.archived',
  'qualification.assigned',
  'qualification.unassigned',
  'qualification.evaluation_signed',
  'qualification.revoked',
  // SCORM packages for an LMS (issue 41)
  'lms_package.exported',
  'lms_package.revoked',
] as const;
export const AuditAction = Type.Enum(AUDIT_ACTIONS);
export type AuditAction = Static<typeof AuditAction>;

/** What stands in a change for a secret (a password hash, a token, an enrolment code). */
export const AUDIT_REDACTED = '[redacted]';

/** A value as it was before or after a change: JSON, secrets replaced by AUDIT_REDACTED. */
export const AuditValue = Type.Unknown();
/**
 * [before, after]. An array of two, not a TypeBox tuple: the response serialiser cannot write a
 * tuple of values of any type.
 */
export const AuditChange = Type.Array(AuditValue, { minItems: 2, maxItems: 2 });

export const AuditActor = Type.Object({
  type: AuditActorType,
  /** The account's or headset's id; null for the system, or a sign-in by an unknown email. */
  id: Nullable(Uuid),
  /**
   * The account's email at that moment (kept after the account is gone); a SCIM token's name;
   * null for others.
   */
  email: Nullable(Type.String()),
  role: Nullable(Role),
});
export type AuditActor = Static<typeof AuditActor>;

export const AuditTarget = Type.Object({
  type: AuditTargetType,
  /** Usually a UUID; a platform name for an app build, a path for a refused route. */
  id: Nullable(Type.String()),
  /** The target's name at that moment (an email, a level name, the email a failed sign-in tried). */
  label: Nullable(Type.String()),
  /**
   * Its English name at that moment, when it has one (a scenario, module, level, option or
   * qualification named in English, a session of such content); null otherwise, and on events
   * written before English names were kept. The English console shows it instead of `label`.
   */
  label_en: Nullable(Type.String()),
});
export type AuditTarget = Static<typeof AuditTarget>;

export const AuditEvent = Type.Object({
  id: Uuid,
  /** When it happened, UTC. */
  at: Timestamp,
  /** The organisation whose chain holds the event; null: the platform's (admin-wide) chain. */
  organization_id: Nullable(Uuid),
  actor: AuditActor,
  action: AuditAction,
  outcome: AuditOutcome,
  target: AuditTarget,
  /** Field → [before, after]; a created thing has null before, a deleted one null after. */
  changes: Type.Record(Type.String(), AuditChange),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
});
export type AuditEvent = Static<typeof AuditEvent>;
export type AuditChanges = Record<string, [before: unknown, after: unknown]>;

export const AUDIT_LIST_DEFAULT_LIMIT = 50;
export const AUDIT_LIST_MAX_LIMIT = 500;

/** A time bound: a UTC day (the whole day) or an instant. */
export const AuditTimeBound = Type.Union([IsoDate, Timestamp]);

/**
 * The filters of the list and its CSV export. Admins see every organisation's events (and the
 * platform's) unless they give `organization_id`; staff see their own organisation's only, and
 * another organisation's id answers 404. `action` is a prefix (`session` finds every `session.*`);
 * `from` is inclusive, `to` inclusive of a whole day or exclusive of an instant.
 */
export const auditFilterFields = {
  organization_id: Type.Optional(Uuid),
  actor_id: Type.Optional(Uuid),
  action: Type.Optional(Text({ maxLength: 100, description: 'action or its dotted prefix' })),
  target_id: Type.Optional(Text({ maxLength: 200 })),
  from: Type.Optional(AuditTimeBound),
  to: Type.Optional(AuditTimeBound),
};

/** Newest first; `cursor` is the previous page's next_cursor (opaque). */
export const AuditEventListQuery = Type.Object(
  {
    ...auditFilterFields,
    cursor: Type.Optional(Text({ maxLength: 200, description: 'next_cursor of the page before' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AUDIT_LIST_MAX_LIMIT,
        default: AUDIT_LIST_DEFAULT_LIMIT,
      }),
    ),
  },
  { additionalProperties: false },
);
export type AuditEventListQuery = Static<typeof AuditEventListQuery>;

export const AuditEventExportQuery = Type.Object(auditFilterFields, {
  additionalProperties: false,
});
export type AuditEventExportQuery = Static<typeof AuditEventExportQuery>;

/**
 * A page of events, newest first. A log that only grows is paged by cursor, not offset: a page
 * stays the same while events are written above it. next_cursor is null on the last page.
 */
export const AuditEventPage = Type.Object({
  audit_events: Type.Array(AuditEvent),
  next_cursor: Nullable(Type.String()),
  limit: Type.Integer(),
});
export type AuditEventPage = Static<typeof AuditEventPage>;

/**
 * GET /v1/admin/audit/verify: every chain walked from its checkpoint. When one does not hold,
 * first_bad_event_id names the first event whose stored content no longer matches its hash (or
 * whose link to the one before is broken), organization_id its chain (null: the platform's).
 */
/**
 * Whether verify trusted a chain's checkpoint (where a retention purge left it to start):
 * key_matched, its signature holds under the server's AUDIT_KEY; unsigned, it has none (set by
 * hand, or written before checkpoints were signed); signature_mismatch, signed with another key
 * or altered since. Only key_matched is trusted: the others fail the verification.
 */
export const AUDIT_CHECKPOINT_TRUST = ['key_matched', 'unsigned', 'signature_mismatch'] as const;
export type AuditCheckpointTrust = (typeof AUDIT_CHECKPOINT_TRUST)[number];

/** One chain's checkpoint as verify judged it. */
export const AuditCheckpointVerdict = Type.Object({
  /** The chain's organisation; null: the platform's chain. */
  organization_id: Nullable(Uuid),
  /** The seq of the last event purged: the chain is walked from the one after it. */
  seq: Type.Integer(),
  purged_at: Timestamp,
  trust: Type.Enum(AUDIT_CHECKPOINT_TRUST),
  trusted: Type.Boolean(),
});
export type AuditCheckpointVerdict = Static<typeof AuditCheckpointVerdict>;

export const AuditVerifyResult = Type.Object({
  ok: Type.Boolean(),
  chains_checked: Type.Integer(),
  events_checked: Type.Integer(),
  first_bad_event_id: Nullable(Uuid),
  organization_id: Nullable(Uuid),
  /**
   * Every checkpoint met and whether it was trusted; a refused one ends the verification there
   * (ok false, organization_id its chain, first_bad_event_id null).
   */
  checkpoints: Type.Array(AuditCheckpointVerdict),
});
export type AuditVerifyResult = Static<typeof AuditVerifyResult>;

/** The export's columns; changes are one JSON cell. */
export const AUDIT_CSV_COLUMNS = [
  'Time (UTC)',
  'Organization ID',
  'Actor Type',
  'Actor ID',
  'Actor Email',
  'Actor Role',
  'Action',
  'Outcome',
  'Target Type',
  'Target ID',
  'Target',
  'Changes',
  'IP',
  'User Agent',
  'Request ID',
  'Event ID',
] as const;

/** One row of the audit CSV, cells already formula-safe. */
export function auditCsvRow(event: AuditEvent): Array<string> {
  const cells = [
    event.at,
    event.organization_id ?? '',
    event.actor.type,
    event.actor.id ?? '',
    event.actor.email ?? '',
    event.actor.role ?? '',
    event.action,
    event.outcome,
    event.target.type,
    event.target.id ?? '',
    event.target.label ?? '',
    Object.keys(event.changes).length > 0 ? JSON.stringify(event.changes) : '',
    event.ip ?? '',
    event.user_agent ?? '',
    event.request_id ?? '',
    event.id,
  ];
  return cells.map((cell) => String(neutralizeCsvCell(cell)));
}
