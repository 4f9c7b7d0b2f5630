import type { DeviceType, MovementType, Role, SessionStatus } from '@vrtc/contract';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** The enum types are the contract's (one declaration for every side). */
export type { DeviceType, MovementType, Role, SessionStatus };

/** Row types of the tables in migrations/, for Kysely. Keep in step with the SQL. */
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date, Date>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  active: Generated<boolean>;
  created_at: CreatedAt;
  mfa_required: Generated<boolean>;
}

export interface AccountsTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  role: Role;
  organization_id: string;
  active: Generated<boolean>;
  created_at: CreatedAt;
  sso_exempt: Generated<boolean>;
  qualification_digest: Generated<boolean>;
  language: 'ru' | 'en' | null;
  /** What a directory told of the person by SCIM (migration 0028); null otherwise. */
  external_id: Generated<string | null>;
  given_name: Generated<string | null>;
  family_name: Generated<string | null>;
  display_name: Generated<string | null>;
}

export interface AuthTokensTable {
  id: Generated<string>;
  account_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Made by single sign-on (migration 0027): by which protocol. */
  sso_protocol: 'oidc' | 'saml' | null;
  /** Until when a re-authentication at the provider may stand in for a password, once. */
  sso_fresh_until: Timestamp | null;
  /** An API token's name (migration 0024); null: a console sign-in. */
  name: ColumnType<string | null, string | null | undefined, never>;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date>;
  mfa_enrolment_only: Generated<boolean>;
}

/** Multi-factor sign-in (migration 0025, decision 031). */
export interface MfaTotpTable {
  account_id: string;
  secret_sealed: string;
  created_at: Timestamp;
  confirmed_at: Date | null;
  // bigint: a string from pg, a number from PGlite; read through Number().
  last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface MfaRecoveryCodesTable {
  id: Generated<string>;
  account_id: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: Date | null;
}

export interface MfaPasskeysTable {
  id: Generated<string>;
  account_id: string;
  credential_id: string;
  public_key: string;
  counter: ColumnType<string | number, number | undefined, number>;
  transports: Generated<string>;
  name: string;
  created_at: Timestamp;
  last_used_at: Date | null;
}

export interface MfaChallengesTable {
  id: Generated<string>;
  token_hash: string;
  account_id: string;
  purpose: 'sign_in' | 'register';
  webauthn_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface PlatformSettingsTable {
  id: Generated<number>;
  mfa_required_for_admins: Generated<boolean>;
}

export interface RateLimitCountersTable {
  key: string;
  hits: number;
  window_ends_at: Timestamp;
}

export interface VrUsersTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  notes: string | null;
  /** The learner id an LMS knows them by (migration 0029); unique per organisation. */
  external_id: Generated<string | null>;
  created_at: CreatedAt;
  /** Kept by the sessions_rollup trigger (migration 0004); never written by the application. */
  session_count: Generated<number>;
  completed_count: Generated<number>;
  last_session_at: Generated<Date | null>;
}

export interface SessionTasksTable {
  session_id: string;
  number: number;
  key: string | null;
  name: string | null;
  result: 'passed' | 'failed' | 'skipped';
  score: number | null;
  duration_ms: number | null;
  reported_at: Timestamp;
  /** The headset's occurred_at as sent, and clamped to [started_at, reported_at]. */
  occurred_at_reported: Date | null;
  occurred_at: Date | null;
}

/** Daily figures per organisation, kept exact by the sessions_rollup trigger (migration 0004). */
export interface SessionDailyTable {
  organization_id: string;
  day: string;
  sessions: number;
  active: number;
  completed: number;
  cancelled: number;
  disconnected: number;
  timeout: number;
  successes: number;
  completion_sum: string;
  timed: number;
  duration_sum: string;
}

/** session_daily without the organisation: every organisation's sessions of a day together. */
export type SessionDailyAllTable = Omit<SessionDailyTable, 'organization_id'>;

/** session_daily by month (`month` is the month's first day). */
export type SessionMonthlyTable = Omit<SessionDailyTable, 'day'> & { month: string };

export interface SessionDailyScenarioTable {
  day: string;
  scenario_id: string | null;
  scenario_name: string;
  scenario_name_en: string | null;
  sessions: number;
  completed: number;
  ended: number;
  successes: number;
  completion_sum: string;
}

export interface SessionDailyDeviceTypeTable {
  day: string;
  device_type: string;
  sessions: number;
}

export interface DevicesTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  type: DeviceType;
  movement_type: Generated<MovementType>;
  token_hash: string | null;
  last_seen_at: Date | null;
  battery_percent: number | null;
  app_version: string | null;
  pending_reports: Generated<number>;
  created_at: CreatedAt;
}

export interface EnrollmentCodesTable {
  organization_id: string;
  code: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ScenariosTable {
  id: Generated<string>;
  name: string;
  description: Generated<string>;
  /** English text beside the primary (Russian); null when not given (migration 0004). */
  name_en: Generated<string | null>;
  description_en: Generated<string | null>;
  active: Generated<boolean>;
  created_at: CreatedAt;
}

export interface ModulesTable {
  id: Generated<string>;
  scenario_id: string;
  name: string;
  description: Generated<string>;
  /** English text beside the primary (Russian); null when not given (migration 0004). */
  name_en: Generated<string | null>;
  description_en: Generated<string | null>;
  order_index: Generated<number>;
  created_at: CreatedAt;
}

export interface LevelsTable {
  id: Generated<string>;
  module_id: string;
  name: string;
  level_number: number;
  description: Generated<string>;
  /** English text beside the primary (Russian); null when not given (migration 0004). */
  name_en: Generated<string | null>;
  description_en: Generated<string | null>;
  max_tasks: Generated<number>;
  created_at: CreatedAt;
  /** Raised by the database on any change to the level, its module, scenario or options (0011). */
  revision: Generated<number>;
}

export interface LevelOptionsTable {
  id: Generated<string>;
  level_id: string;
  name: string;
  description: Generated<string>;
  /** English text beside the primary (Russian); null when not given (migration 0004). */
  name_en: Generated<string | null>;
  description_en: Generated<string | null>;
  order_index: Generated<number>;
  created_at: CreatedAt;
}

/** SCORM package keys and the launches they open (migration 0029, docs/lms.md). */
export interface LmsPackageKeysTable {
  id: Generated<string>;
  organization_id: string;
  level_id: string | null;
  qualification_id: string | null;
  key_hash: string;
  scorm_version: '1.2' | '2004';
  title: string;
  created_by_email: string | null;
  created_at: Timestamp;
  revoked_at: Date | null;
}

export interface LmsLaunchesTable {
  id: Generated<string>;
  organization_id: string;
  package_key_id: string;
  vr_user_id: string;
  level_id: string;
  pin: string;
  pin_expires_at: Date;
  token_hash: string;
  session_id: string | null;
  claimed_at: Date | null;
  created_at: Timestamp;
}

export interface ScenarioAccessTable {
  scenario_id: string;
  organization_id: string;
  granted_at: Timestamp;
  granted_by: string | null;
  expires_at: Date | null;
}

export interface SelectedOption {
  id: string;
  name: string;
  /** Absent in sessions started before content had English names. */
  name_en?: string | null;
}

export interface SessionsTable {
  id: Generated<string>;
  organization_id: string;
  device_id: string | null;
  vr_user_id: string | null;
  scenario_id: string | null;
  module_id: string | null;
  level_id: string | null;
  started_by_account_id: string | null;
  device_name: string;
  device_type: string;
  vr_user_name: string;
  scenario_name: string;
  module_name: string;
  level_name: string;
  scenario_name_en: Generated<string | null>;
  module_name_en: Generated<string | null>;
  level_name_en: Generated<string | null>;
  level_number: number;
  /** The level's revision when the session started (migration 0011). */
  level_revision: Generated<number>;
  max_tasks: number;
  selected_options: ColumnType<SelectedOption[], string, string>;
  started_by_email: string | null;
  status: Generated<SessionStatus>;
  completed_tasks: Generated<number>;
  success: boolean | null;
  started_at: Timestamp;
  ended_at: Date | null;
  duration_seconds: number | null;
  progress_seq: number | null;
  late_result: Generated<boolean>;
  ended_by_server_as: 'disconnected' | 'timeout' | null;
  finish_occurred_at: Date | null;
}

/** A headset's report keys and their first answers (docs/headset-protocol.md, idempotency). */
export interface HeadsetIdempotencyKeysTable {
  device_id: string;
  key: string;
  request_hash: string;
  status: number;
  body: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

/**
 * The audit log (migration 0010): append-only. An event linked as it was written has its seq and
 * hashes; one written while its chain's head was held has content_hash, and its link in
 * audit_links once the linker gave it one (migration 0015).
 */
export interface AuditEventsTable {
  id: string;
  chain: string;
  seq: ColumnType<string | null, number, never>;
  at: ColumnType<Date, string | Date, never>;
  organization_id: string | null;
  actor_type: 'account' | 'headset' | 'system' | 'scim_token';
  actor_id: string | null;
  actor_email: string | null;
  actor_role: Role | null;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  /** The target's English name beside `target_label`, when it has one (migration 0032). */
  target_label_en: Generated<string | null>;
  changes: ColumnType<Record<string, [unknown, unknown]>, string, never>;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  prev_hash: string | null;
  hash: string | null;
  content_hash: string | null;
}

/** The linker's links of the events written without one (migration 0015). */
export interface AuditLinksTable {
  event_id: string;
  chain: string;
  seq: ColumnType<string, number, never>;
  prev_hash: string;
  hash: string;
}

/** The events waiting for the linker, in the order written (migration 0015). */
export interface AuditUnlinkedTable {
  event_id: string;
  chain: string;
  queued: Generated<string>;
}

export interface AuditChainHeadsTable {
  chain: string;
  seq: ColumnType<string, number, number>;
  hash: string;
  /** The hash before the last event (vrtc_audit_append); null until the chain's first event. */
  prev_hash: string | null;
}

export interface AuditCheckpointsTable {
  chain: string;
  seq: ColumnType<string, number, number>;
  hash: string;
  purged_at: Timestamp;
  /** HMAC-SHA256 under AUDIT_KEY (migration 0023); null on a checkpoint written before it. */
  signature: string | null;
}

/** Results out (migration 0012): integrations, the outbox and the deliveries. */
export interface IntegrationsTable {
  id: Generated<string>;
  organization_id: string;
  kind: 'webhook' | 'xapi';
  url: string;
  events: string[];
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  xapi_key: string | null;
  xapi_secret: string | null;
  include_names: Generated<boolean>;
  enabled: Generated<boolean>;
  disabled_reason: 'by_user' | 'gone' | 'failing' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  consecutive_timeouts: Generated<number>;
  slowed_until: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OutboxEventsTable {
  id: string;
  organization_id: string;
  type: string;
  payload: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

export interface DeliveriesTable {
  id: Generated<string>;
  integration_id: string;
  event_id: string;
  event_type: string;
  status: Generated<'pending' | 'delivered' | 'failed' | 'abandoned'>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Timestamp;
}

export interface LicenseExpiryNoticesTable {
  scenario_id: string;
  organization_id: string;
  expires_at: Timestamp;
  sent_at: Timestamp;
}

/** Qualifications (migration 0016, docs/compliance.md). */
export interface QualificationsTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  name_en: string | null;
  description: string | null;
  validity_days: number | null;
  expiring_within_days: Generated<number>;
  evaluation_required: Generated<boolean>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Single sign-on (migration 0021). */
export interface ScimTokensTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface SsoConfigsTable {
  organization_id: string;
  protocol: 'oidc' | 'saml';
  issuer: string | null;
  client_id: string | null;
  client_secret_encrypted: string | null;
  /** SAML (migration 0027): the provider's entity ID, sign-on URL and signing certificates. */
  idp_entity_id: string | null;
  entry_point: string | null;
  idp_certificate: string | null;
  enforced: boolean;
  jit: boolean;
  default_role: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface QualificationLevelsTable {
  qualification_id: string;
  level_id: string;
}

export interface QualificationAssignmentsTable {
  qualification_id: string;
  vr_user_id: string;
  organization_id: string;
  due_at: Date | null;
  assigned_at: Timestamp;
  /**
   * The pair's pieces as the record holds them now, kept by triggers (migration 0030): never
   * written by the app, read by the compliance view (qualifications/compliance-sql.ts).
   */
  standing_kind: Generated<'revoked' | 'not_qualified' | 'pending_evaluation' | 'complete'>;
  standing_oldest_at: Generated<Date | null>;
  standing_earned_at: Generated<Date | null>;
  standing_since: Generated<Date | null>;
}

export interface QualificationEvaluationsTable {
  id: Generated<string>;
  organization_id: string;
  qualification_id: string;
  vr_user_id: string;
  result: 'pass' | 'fail';
  meaning: string;
  notes: string | null;
  signer_account_id: string | null;
  signer_name: string;
  signer_email: string;
  signed_at: Timestamp;
}

export interface QualificationRevocationsTable {
  id: Generated<string>;
  organization_id: string;
  qualification_id: string;
  vr_user_id: string;
  reason: string;
  revoked_at: Timestamp;
  revoked_by_account_id: string | null;
  revoked_by_email: string | null;
}

export interface QualificationAwardsTable {
  id: Generated<string>;
  organization_id: string;
  qualification_id: string;
  vr_user_id: string;
  earned_at: Timestamp;
  certificate_code: string;
}

export interface QualificationNoticesTable {
  qualification_id: string;
  vr_user_id: string;
  moment: Timestamp;
  state: 'earned' | 'expiring' | 'expired' | 'revoked';
  organization_id: string;
  sent_at: Timestamp;
}

/** The daily email digest (qualifications/digest.ts): one per organisation and UTC day. */
export interface QualificationDigestsTable {
  organization_id: string;
  day: string;
  window_from: Timestamp;
  window_to: Timestamp;
  entries: number;
}

export interface QualificationDigestMailsTable {
  id: Generated<string>;
  organization_id: string;
  day: string;
  account_id: string | null;
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
  claimed_until: Timestamp | null;
  attempts: Generated<number>;
  sent_at: Timestamp | null;
  last_error: string | null;
}

export interface SsoEmailDomainsTable {
  domain: string;
  organization_id: string;
}

export interface SsoSignInsTable {
  state: string;
  organization_id: string;
  nonce: string | null;
  code_verifier: string | null;
  return_to: string;
  expires_at: Timestamp;
  protocol: Generated<'oidc' | 'saml'>;
  purpose: Generated<'sign_in' | 'test' | 'reauth'>;
  /** reauth: the console session that asked. */
  auth_token_id: string | null;
  /** test: what the test sign-in saw (JSON). */
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

export interface SamlAssertionsUsedTable {
  organization_id: string;
  assertion_id: string;
  expires_at: Timestamp;
}

export interface Database {
  qualification_notices: QualificationNoticesTable;
  qualification_digests: QualificationDigestsTable;
  qualification_digest_mails: QualificationDigestMailsTable;
  qualifications: QualificationsTable;
  qualification_levels: QualificationLevelsTable;
  qualification_assignments: QualificationAssignmentsTable;
  qualification_evaluations: QualificationEvaluationsTable;
  qualification_revocations: QualificationRevocationsTable;
  qualification_awards: QualificationAwardsTable;
  sso_configs: SsoConfigsTable;
  scim_tokens: ScimTokensTable;
  sso_email_domains: SsoEmailDomainsTable;
  sso_sign_ins: SsoSignInsTable;
  saml_assertions_used: SamlAssertionsUsedTable;
  integrations: IntegrationsTable;
  outbox_events: OutboxEventsTable;
  deliveries: DeliveriesTable;
  license_expiry_notices: LicenseExpiryNoticesTable;
  audit_events: AuditEventsTable;
  audit_chain_heads: AuditChainHeadsTable;
  audit_links: AuditLinksTable;
  audit_unlinked: AuditUnlinkedTable;
  audit_checkpoints: AuditCheckpointsTable;
  organizations: OrganizationsTable;
  accounts: AccountsTable;
  auth_tokens: AuthTokensTable;
  mfa_totp: MfaTotpTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_passkeys: MfaPasskeysTable;
  mfa_challenges: MfaChallengesTable;
  platform_settings: PlatformSettingsTable;
  rate_limit_counters: RateLimitCountersTable;
  vr_users: VrUsersTable;
  devices: DevicesTable;
  enrollment_codes: EnrollmentCodesTable;
  scenarios: ScenariosTable;
  modules: ModulesTable;
  levels: LevelsTable;
  level_options: LevelOptionsTable;
  scenario_access: ScenarioAccessTable;
  lms_package_keys: LmsPackageKeysTable;
  lms_launches: LmsLaunchesTable;
  sessions: SessionsTable;
  session_tasks: SessionTasksTable;
  headset_idempotency_keys: HeadsetIdempotencyKeysTable;
  session_daily: SessionDailyTable;
  session_daily_all: SessionDailyAllTable;
  session_monthly: SessionMonthlyTable;
  session_daily_scenario: SessionDailyScenarioTable;
  session_monthly_scenario: Omit<SessionDailyScenarioTable, 'day'> & { month: string };
  session_daily_device_type: SessionDailyDeviceTypeTable;
}

export type Account = Selectable<AccountsTable>;
export type Device = Selectable<DevicesTable>;
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type DeviceUpdate = Updateable<DevicesTable>;
