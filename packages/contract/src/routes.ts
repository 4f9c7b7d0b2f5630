import {
  GrantAccessBody,
  GrantAccessResponse,
  RevokeAccessBody,
  RevokeAccessResponse,
  ScenarioAccessMatrix,
  ScenarioAccessQuery,
  ScenarioGrantsPage,
  ScenarioGrantsQuery,
} from './access.ts';
import {
  Account,
  AccountCreateBody,
  AccountList,
  AccountListQuery,
  AccountPasswordBody,
  AccountUpdateBody,
} from './accounts.ts';
import {
  AuditEventExportQuery,
  AuditEventListQuery,
  AuditEventPage,
  AuditVerifyResult,
} from './audit.ts';
import {
  AccountSettings,
  AccountSettingsBody,
  LoginAnswer,
  LoginBody,
  LogoutAnswer,
  Me,
  SessionProbe,
  OwnPasswordBody,
  SsoEndSessionQuery,
} from './auth.ts';
import { ApiTokenList, CreateApiTokenBody, CreatedApiToken } from './api-tokens.ts';
import {
  Delivery,
  DeliveryListQuery,
  DeliveryPage,
  DeliveryParams,
  Integration,
  IntegrationCreateBody,
  IntegrationList,
  IntegrationListQuery,
  IntegrationTestResult,
  IntegrationUpdateBody,
  IntegrationWithSecret,
} from './integrations.ts';
import { IdParams, OkBody } from './common.ts';
import { lmsRoutes } from './lms.ts';
import {
  ContentLevel,
  ContentModule,
  CreateLevelBody,
  CreateLevelOptionBody,
  CreateModuleBody,
  CreateScenarioBody,
  LevelList,
  LevelListQuery,
  LevelOption,
  LevelOptionList,
  LevelOptionListQuery,
  ModuleList,
  ModuleListQuery,
  ScenarioDetail,
  ScenarioList,
  ScenarioListQuery,
  ScenarioSummary,
  ScenarioTreeList,
  UpdateLevelBody,
  UpdateLevelOptionBody,
  UpdateModuleBody,
  UpdateScenarioBody,
} from './content.ts';
import {
  AdminDeviceList,
  AdminDeviceListQuery,
  BulkDeleteDevicesBody,
  BulkDeleteDevicesResponse,
  Device,
  DeviceList,
  DeviceListQuery,
  MovementTypeBody,
} from './devices.ts';
import {
  AppBuild,
  AppBuildList,
  AppBuildUploadQuery,
  AppPlatformParams,
  DownloadFileQuery,
  DownloadLinks,
} from './downloads.ts';
import {
  EnrollBody,
  EnrollmentCode,
  EnrollResponse,
  FinishBody,
  HeartbeatBody,
  HeartbeatResponse,
  HeadsetEventsQuery,
  ProgressBody,
  ReportHeaders,
  SessionIdParams,
  SessionProgressResponse,
} from './headset.ts';
import {
  Organization,
  OrganizationAnalytics,
  OrganizationAnalyticsQuery,
  OrganizationCreateBody,
  OrganizationList,
  OrganizationListQuery,
  OrganizationUpdateBody,
} from './organizations.ts';
import { mfaRoutes } from './mfa-routes.ts';
import { qualificationRoutes } from './qualification-routes.ts';
import { defineRoute } from './route-map.ts';
import {
  SamlAcsBody,
  SamlMetadataParams,
  SsoCallbackQuery,
  SsoConfig,
  SsoConfigBody,
  SsoReauthQuery,
  SsoStartQuery,
  SsoDiscoverQuery,
  SsoDiscoverBody,
  SsoTestParams,
  SsoTestResult,
} from './sso.ts';
import { ScimTokenBody, ScimTokenIssued, ScimTokenState } from './scim.ts';
import { routeTable } from './route-table.ts';
import {
  ActiveSessionList,
  HistorySession,
  SessionDetail,
  SessionExportQuery,
  SessionList,
  SessionListQuery,
  StartedSession,
  StartSessionBody,
} from './sessions.ts';
import {
  GlobalStats,
  OrganizationStatsQuery,
  OrganizationStatsRange,
  StatsExportQuery,
  StatsRange,
  StatsRangeQuery,
} from './stats.ts';
import {
  VrUser,
  VrUserBody,
  VrUserList,
  VrUserListQuery,
  VrUserSessionList,
  VrUserSessionsQuery,
  TrainingRecord,
  TrainingRecordExportQuery,
} from './vr-users.ts';

/** How an export a person reads follows its reader (csv-reader.ts, issue 42). */
const READER_CSV =
  'A reader naming a language (lang, else an Accept-Language naming ru or en) gets the file in ' +
  'it: headers, statuses, yes/no and durations in words, date-times at utc_offset (minutes ' +
  'east of UTC, named in the headers; UTC without it), and in Russian `;` between cells and ' +
  'decimal commas; the record names the trainee and the organisation on every row. A client ' +
  'naming no language gets the file as it always was (English headers, status codes, UTC ISO ' +
  'times, commas, content names in Russian).';

/**
 * Every route of the API, by name. The server registers its routes from these definitions, the
 * console's API client and the headset simulator call them by name: a path, a parameter or a
 * response field that changes here changes for every side, or fails their typecheck.
 */
export const routes = {
  // ---- VR users ----
  listVrUsers: defineRoute({
    ...routeTable.listVrUsers,
    access: 'reader',
    tags: ['vr-users'],
    description:
      'The organisation’s VR users, a page at a time; `q` matches the name or the notes.',
    querystring: VrUserListQuery,
    success: { status: 200, body: VrUserList },
    errors: [],
  }),
  getVrUser: defineRoute({
    ...routeTable.getVrUser,
    access: 'reader',
    tags: ['vr-users'],
    params: IdParams,
    success: { status: 200, body: VrUser },
    errors: ['not_found'],
  }),
  createVrUser: defineRoute({
    ...routeTable.createVrUser,
    access: 'user',
    tags: ['vr-users'],
    body: VrUserBody,
    success: { status: 201, body: VrUser },
    errors: ['quota_exceeded'],
  }),
  updateVrUser: defineRoute({
    ...routeTable.updateVrUser,
    access: 'user',
    tags: ['vr-users'],
    params: IdParams,
    body: VrUserBody,
    success: { status: 200, body: VrUser },
    errors: ['not_found'],
  }),
  deleteVrUser: defineRoute({
    ...routeTable.deleteVrUser,
    access: 'user',
    tags: ['vr-users'],
    description: 'Refused with 409 vr_user_has_sessions while the VR user has any session.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'vr_user_has_sessions'],
  }),
  listVrUserSessions: defineRoute({
    ...routeTable.listVrUserSessions,
    access: 'reader',
    tags: ['vr-users'],
    params: IdParams,
    querystring: VrUserSessionsQuery,
    success: { status: 200, body: VrUserSessionList },
    errors: ['not_found'],
  }),
  vrUserRecord: defineRoute({
    ...routeTable.vrUserRecord,
    access: 'reader',
    tags: ['vr-users'],
    description:
      "The trainee's training record: per level attempted (ended sessions), the attempts, " +
      'completions (ended with success), best and last result, first and last completion, the ' +
      'revisions trained; and the totals. Agrees with the History and the statistics.',
    params: IdParams,
    success: { status: 200, body: TrainingRecord },
    errors: ['not_found'],
  }),
  exportVrUserRecord: defineRoute({
    ...routeTable.exportVrUserRecord,
    access: 'reader',
    tags: ['vr-users'],
    description:
      'The training record as CSV (UTF-8 with a byte-order mark, formula-safe cells): one row ' +
      'per level, then the totals. ' +
      READER_CSV,
    params: IdParams,
    querystring: TrainingRecordExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: ['not_found'],
  }),

  // ---- Sign-in ----
  login: defineRoute({
    ...routeTable.login,
    access: 'public',
    tags: ['auth'],
    description:
      'Sets the httpOnly sign-in cookie. A request with an Origin header (a browser page) gets ' +
      'the answer without token; one without Origin (scripts, API users) gets the bearer token ' +
      'in it. Failures in 15 minutes: 5 per client address (IPv4, IPv6 /64) and account, 100 ' +
      'per address across accounts; then 429 with Retry-After. Past 50 failures of an account ' +
      'from any address, a sign-in from a browser that never signed in to it waits ' +
      'LOGIN_SLOW_DELAY_MS, never refused. An account with a second factor gets an MfaChallenge ' +
      '(no cookie, no token) and signs in at POST /v1/auth/mfa/verify; one that must have a ' +
      'factor and has none is signed in for its enrolment only (mfa_enrolment_required: true).',
    body: LoginBody,
    success: { status: 200, body: LoginAnswer },
    errors: [
      'invalid_credentials',
      'forbidden',
      'sso_required',
      'rate_limited',
      'cross_site_request',
    ],
  }),
  me: defineRoute({
    ...routeTable.me,
    access: 'reader',
    tags: ['auth'],
    success: { status: 200, body: Me },
    errors: [],
  }),
  sessionProbe: defineRoute({
    ...routeTable.sessionProbe,
    access: 'public',
    tags: ['auth'],
    description:
      'Whether the caller is signed in (the console’s cookie, or a bearer token), answered 200 ' +
      'either way: `{ signed_in: true, account }` with the account as GET /v1/me answers it, or ' +
      '`{ signed_in: false, account: null }`, when no sign-in was sent or it no longer holds ' +
      '(an expired cookie is cleared). The console asks it on start, so a signed-out visit ' +
      'costs no refused request; GET /v1/me keeps answering 401 without a sign-in.',
    success: { status: 200, body: SessionProbe },
    errors: [],
  }),
  getOwnSettings: defineRoute({
    ...routeTable.getOwnSettings,
    access: 'user',
    tags: ['auth'],
    description:
      'The caller’s own settings: the daily qualifications digest by email (on unless turned ' +
      'off) and the language of its mails; `mail_configured` is false when the server sends no ' +
      'mail (SMTP_URL unset).',
    success: { status: 200, body: AccountSettings },
    errors: [],
  }),
  putOwnSettings: defineRoute({
    ...routeTable.putOwnSettings,
    access: 'user',
    tags: ['auth'],
    description: 'Changes the caller’s own settings; fields left out stay as they are.',
    body: AccountSettingsBody,
    success: { status: 200, body: AccountSettings },
    errors: [],
  }),
  logout: defineRoute({
    ...routeTable.logout,
    access: 'reader',
    tags: ['auth'],
    success: { status: 200, body: LogoutAnswer },
    errors: [],
  }),
  changeOwnPassword: defineRoute({
    ...routeTable.changeOwnPassword,
    access: 'reader',
    tags: ['auth'],
    description:
      'The caller changes its own password, giving the current one. Every other sign-in of the ' +
      'account ends (their live streams close); the one used for this call stays. A wrong ' +
      'current password counts as a failed sign-in under the sign-in limits (429 past them).',
    body: OwnPasswordBody,
    success: { status: 200, body: OkBody },
    errors: ['wrong_current_password', 'rate_limited', 'password_too_common'],
  }),
  listApiTokens: defineRoute({
    ...routeTable.listApiTokens,
    access: 'reader',
    tags: ['auth'],
    description:
      'The caller’s own API tokens, newest first: name, when made, last used (to the minute) ' +
      'and when it expires. Never the secret.',
    success: { status: 200, body: ApiTokenList },
    errors: [],
  }),
  createApiToken: defineRoute({
    ...routeTable.createApiToken,
    access: 'reader',
    tags: ['auth'],
    description:
      'Makes an API token of the caller’s own: a bearer token (`Authorization: Bearer …`) that ' +
      'acts as the caller, with its role and organisation, until revoked or expires_at. The ' +
      'secret is in this answer only; the server keeps its hash. An auditor’s token reads only, ' +
      'as the auditor. At most 20 per account (409 quota_exceeded).',
    body: CreateApiTokenBody,
    success: { status: 201, body: CreatedApiToken },
    errors: ['quota_exceeded'],
  }),
  revokeApiToken: defineRoute({
    ...routeTable.revokeApiToken,
    access: 'reader',
    tags: ['auth'],
    description:
      'Revokes one of the caller’s own API tokens: a request with it is refused (401) at once, ' +
      'and its live streams close. Another account’s token is not found (404).',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),

  ssoDiscover: defineRoute({
    ...routeTable.ssoDiscover,
    access: 'public',
    tags: ['auth'],
    description:
      'Asked by the sign-in page with the email before any password: whether its domain belongs ' +
      'to an organisation with complete single sign-on (`sso`) and whether that organisation ' +
      'enforces it (`enforced`). Nothing else is revealed; an unknown domain answers both false. ' +
      'Limited per address (429 past 30 a minute).',
    querystring: SsoDiscoverQuery,
    success: { status: 200, body: SsoDiscoverBody },
    errors: ['rate_limited'],
  }),
  ssoStart: defineRoute({
    ...routeTable.ssoStart,
    access: 'public',
    tags: ['auth'],
    description:
      'Sends the browser to the identity provider of the organisation of `email` (by its ' +
      'domain) or `organization_id`: OIDC authorization code flow with PKCE (S256), state and ' +
      'nonce used once within 10 minutes. A failure goes to /login?sso_error=<code>.',
    querystring: SsoStartQuery,
    success: { status: 302, redirect: "the provider's authorization endpoint" },
    errors: [],
  }),
  ssoCallback: defineRoute({
    ...routeTable.ssoCallback,
    access: 'public',
    tags: ['auth'],
    description:
      'Where the provider sends the browser back. On success the console’s session cookie is ' +
      'set and the browser goes to the page it asked for; on failure to ' +
      '/login?sso_error=<code> (docs/sso.md).',
    querystring: SsoCallbackQuery,
    success: { status: 302, redirect: 'the console page asked for, or /login?sso_error=<code>' },
    errors: [],
  }),
  samlMetadata: defineRoute({
    ...routeTable.samlMetadata,
    access: 'public',
    tags: ['auth'],
    description:
      'The console’s SAML service provider metadata for the organisation: its entity ID (this ' +
      'URL), the assertion consumer service and that assertions must be signed. 404 when the ' +
      'organisation has no SAML sign-on.',
    params: SamlMetadataParams,
    success: { status: 200, file: 'application/samlmetadata+xml' },
    errors: ['not_found'],
  }),
  samlAcs: defineRoute({
    ...routeTable.samlAcs,
    access: 'public',
    tags: ['auth'],
    description:
      'The SAML assertion consumer service: the identity provider’s response, posted by the ' +
      'browser as a form. The response or its assertion must be signed by the provider, for this ' +
      'audience and recipient, in answer to a request of the last 10 minutes (InResponseTo, used ' +
      'once), unexpired (2 minutes of clock skew) and never seen before. Then as the OIDC callback.',
    body: SamlAcsBody,
    success: { status: 302, redirect: 'the console page asked for, or /login?sso_error=<code>' },
    errors: [],
  }),
  ssoEndSession: defineRoute({
    ...routeTable.ssoEndSession,
    access: 'public',
    tags: ['auth'],
    description:
      'The sign-out at the organisation’s OIDC provider the sign-out answer offers: 302 to its ' +
      'end_session_endpoint (back to the console’s /login), or to /login when it has none.',
    querystring: SsoEndSessionQuery,
    success: { status: 302, redirect: "the provider's end_session_endpoint, or /login" },
    errors: [],
  }),
  ssoReauth: defineRoute({
    ...routeTable.ssoReauth,
    access: 'user',
    tags: ['auth'],
    description:
      'Sends an account signed in by single sign-on to its provider to sign in again (OIDC ' +
      'prompt=login and max_age=0, SAML ForceAuthn). Back from it, the session holds a fresh ' +
      'authentication for 5 minutes, which one signature takes instead of a password.',
    querystring: SsoReauthQuery,
    success: { status: 302, redirect: "the provider's sign-in, then return_to" },
    errors: [],
  }),

  // ---- Devices (the caller's organisation) ----
  listDevices: defineRoute({
    ...routeTable.listDevices,
    access: 'reader',
    tags: ['devices'],
    description:
      "The caller's organisation's devices, a page at a time (by name unless sorted); " +
      'status is derived now; `q` matches the name.',
    querystring: DeviceListQuery,
    success: { status: 200, body: DeviceList },
    errors: [],
  }),
  getDevice: defineRoute({
    ...routeTable.getDevice,
    access: 'reader',
    tags: ['devices'],
    description: 'One device of the caller’s organisation; status is derived now.',
    params: IdParams,
    success: { status: 200, body: Device },
    errors: ['not_found'],
  }),
  deleteDevice: defineRoute({
    ...routeTable.deleteDevice,
    access: 'user',
    tags: ['devices'],
    description: 'Refused with 409 device_in_session while the device has an active session.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'device_in_session'],
  }),
  setMovementType: defineRoute({
    ...routeTable.setMovementType,
    access: 'user',
    tags: ['devices'],
    params: IdParams,
    body: MovementTypeBody,
    success: { status: 200, body: Device },
    errors: ['not_found'],
  }),
  currentEnrollmentCode: defineRoute({
    ...routeTable.currentEnrollmentCode,
    access: 'user',
    tags: ['devices'],
    description:
      "The organisation's current enrolment code for new headsets: 8 characters, valid 24 h, " +
      'the same code until it expires, then a new one.',
    success: { status: 200, body: EnrollmentCode },
    errors: ['quota_exceeded'],
  }),
  renewEnrollmentCode: defineRoute({
    ...routeTable.renewEnrollmentCode,
    access: 'user',
    tags: ['devices'],
    description:
      'Replaces the organisation’s enrolment code with a new one; the old code stops working ' +
      'at once (headsets enrolled with it stay). 409 quota_exceeded past ' +
      'QUOTA_ENROLLMENT_CODES_PER_DAY codes issued in 24 hours.',
    success: { status: 200, body: EnrollmentCode },
    errors: ['quota_exceeded'],
  }),
  revokeEnrollmentCode: defineRoute({
    ...routeTable.revokeEnrollmentCode,
    access: 'user',
    tags: ['devices'],
    description:
      'Revokes the organisation’s enrolment code: no headset can enrol with it any more. ' +
      'Opening "Add headset" again issues a new one.',
    success: { status: 200, body: OkBody },
    errors: [],
  }),

  // ---- Sessions ----
  startSession: defineRoute({
    ...routeTable.startSession,
    access: 'user',
    tags: ['sessions'],
    description:
      'Starts a session on a waiting device of the organisation. 404 unknown device, level ' +
      '(or no live grant) or VR user; 409 device_busy or device_not_waiting; 400 for an ' +
      'option that is not of the level. The VR user is matched by name or created.',
    body: StartSessionBody,
    success: { status: 201, body: StartedSession },
    errors: ['not_found', 'device_busy', 'device_not_waiting', 'quota_exceeded'],
  }),
  listSessions: defineRoute({
    ...routeTable.listSessions,
    access: 'reader',
    tags: ['sessions'],
    description:
      'The History tab: newest first (order=asc for oldest first); without status, ended ' +
      'sessions only. Filters: from/to (UTC days of started_at, inclusive), vr_user_id, ' +
      'device_id, scenario_id.',
    querystring: SessionListQuery,
    success: { status: 200, body: SessionList },
    errors: [],
  }),
  exportSessions: defineRoute({
    ...routeTable.exportSessions,
    access: 'reader',
    tags: ['sessions'],
    description:
      'The History CSV of every session matching the same filters as GET /v1/sessions, ' +
      'newest first: UTF-8 with a byte-order mark, the specification’s 16 columns, cells ' +
      'safe from formula injection; the file name carries the organisation, the date and ' +
      'the filters. Streamed, whatever its size. ' +
      READER_CSV,
    querystring: SessionExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: [],
  }),
  listActiveSessions: defineRoute({
    ...routeTable.listActiveSessions,
    access: 'reader',
    tags: ['sessions'],
    success: { status: 200, body: ActiveSessionList },
    errors: [],
  }),
  getSession: defineRoute({
    ...routeTable.getSession,
    access: 'reader',
    tags: ['sessions'],
    description: 'A session of the organisation, any status, with the tasks its headset told of.',
    params: IdParams,
    success: { status: 200, body: SessionDetail },
    errors: ['not_found'],
  }),
  liveEvents: defineRoute({
    ...routeTable.liveEvents,
    access: 'reader',
    tags: ['events'],
    description:
      'Server-Sent Events of what changes in the caller’s organisation (devices and sessions; ' +
      'admins also every organisation’s devices). Authenticated by the Authorization header: ' +
      'the console reads it with fetch. Opens with a `ready` event; a comment every 15 s keeps ' +
      'it open through proxies. 429 too_many_streams past 5 streams per account or the ' +
      'server’s limit.',
    success: { status: 200, file: 'text/event-stream' },
    errors: ['too_many_streams'],
  }),
  cancelSession: defineRoute({
    ...routeTable.cancelSession,
    access: 'user',
    tags: ['sessions'],
    description: 'Ends an active session as cancelled; 409 session_not_active once ended.',
    params: IdParams,
    success: { status: 200, body: HistorySession },
    errors: ['not_found', 'session_not_active'],
  }),

  // ---- Scenarios the organisation may run, and the VR app ----
  scenarioTree: defineRoute({
    ...routeTable.scenarioTree,
    access: 'reader',
    tags: ['scenarios'],
    description:
      'Active scenarios the caller’s organisation holds a live grant for (no expiry, or expiring ' +
      'later than now), with modules, levels and options nested in display order.',
    success: { status: 200, body: ScenarioTreeList },
    errors: [],
  }),
  downloadLinks: defineRoute({
    ...routeTable.downloadLinks,
    access: 'reader',
    tags: ['vr-app'],
    description:
      'Signed links valid for expires_in_seconds (3600); a platform without a build has a null ' +
      'URL (both null when no build has been uploaded yet).',
    success: { status: 200, body: DownloadLinks },
    errors: [],
  }),
  downloadFile: defineRoute({
    ...routeTable.downloadFile,
    access: 'signed_link',
    tags: ['vr-app'],
    description:
      'Streams the APK as an attachment. Needs no token: the expiry and HMAC signature in the ' +
      'query are the authorisation. 403 download_link_invalid when the signature is wrong ' +
      'or the link has expired; 404 not_found when the build is gone.',
    params: AppPlatformParams,
    querystring: DownloadFileQuery,
    success: { status: 200, file: 'application/vnd.android.package-archive' },
    errors: ['download_link_invalid', 'not_found'],
  }),

  // ---- Headset protocol ----
  enroll: defineRoute({
    ...routeTable.enroll,
    access: 'public',
    tags: ['headset'],
    description:
      'Joins the organisation of a valid enrolment code (case-insensitive). 400 ' +
      'enrollment_code_invalid for a wrong or expired code; 429 after 300 wrong codes from ' +
      'one address within 15 minutes (right codes are not counted).',
    body: EnrollBody,
    success: { status: 201, body: EnrollResponse },
    errors: ['enrollment_code_invalid', 'rate_limited', 'quota_exceeded'],
  }),
  heartbeat: defineRoute({
    ...routeTable.heartbeat,
    access: 'device',
    tags: ['headset'],
    description:
      'Every heartbeat_interval_ms. Answers the session the console started on this ' +
      'device, or null, and server_time (the server clock). pending_reports: how many ' +
      'reports the headset still holds, unsent (shown in the console). docs/headset-protocol.md.',
    body: HeartbeatBody,
    success: { status: 200, body: HeartbeatResponse },
    errors: [],
  }),
  headsetEvents: defineRoute({
    ...routeTable.headsetEvents,
    access: 'device',
    tags: ['headset'],
    description:
      'The push channel: a long-poll held up to `wait` seconds (default 25, at most 30). Answers ' +
      'what the heartbeat answers, at once when its session differs from `session` (the id the ' +
      'last answer gave), or as soon as a session is started or ended for this headset, on ' +
      'whichever server node. The heartbeat stays the fallback. docs/headset-protocol.md.',
    querystring: HeadsetEventsQuery,
    success: { status: 200, body: HeartbeatResponse },
    errors: [],
  }),
  reportProgress: defineRoute({
    ...routeTable.reportProgress,
    access: 'device',
    tags: ['headset'],
    description:
      'Tasks completed so far (0..max_tasks), optionally the task that just ended, its seq and ' +
      'occurred_at. Send an Idempotency-Key (UUID) and the same key on every retry: a repeat ' +
      'answers the first answer; the key with another body is 422 idempotency_key_reused. ' +
      'completed_tasks never goes down: an older or repeated report is 200 and changes nothing. ' +
      'Accepted for a session the server ended as disconnected or timeout within ' +
      'LATE_RESULT_WINDOW_MS (409 late_result_window_passed after). 404 if the session is not ' +
      'this device’s; 409 session_cancelled when the console cancelled it, 409 ' +
      'session_not_active once it was completed: stop playing. docs/headset-protocol.md.',
    params: SessionIdParams,
    headers: ReportHeaders,
    body: ProgressBody,
    success: { status: 200, body: SessionProgressResponse },
    errors: [
      'not_found',
      'session_not_active',
      'session_cancelled',
      'late_result_window_passed',
      'idempotency_key_reused',
    ],
  }),
  finishSession: defineRoute({
    ...routeTable.finishSession,
    access: 'device',
    tags: ['headset'],
    description:
      'Ends the session as completed, with success true or false, at occurred_at (clamped to ' +
      '[started_at, now]). Idempotency-Key as for progress: a retried finish answers the first ' +
      'answer. A session the server ended as disconnected or timeout takes its headset’s finish ' +
      'for LATE_RESULT_WINDOW_MS after it ended it (late_result: true), then 409 ' +
      'late_result_window_passed. 404 / 409 session_cancelled / session_not_active as for ' +
      'progress. docs/headset-protocol.md.',
    params: SessionIdParams,
    headers: ReportHeaders,
    body: FinishBody,
    success: { status: 200, body: SessionProgressResponse },
    errors: [
      'not_found',
      'session_not_active',
      'session_cancelled',
      'late_result_window_passed',
      'idempotency_key_reused',
    ],
  }),

  // ---- Admin: organisations ----
  listOrganizations: defineRoute({
    ...routeTable.listOrganizations,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'A page of organisations; `q` matches the name. With include_stats=true each carries ' +
      'its figures (stats), the answer a summary over all organisations, and the list may be ' +
      'sorted by a figure.',
    querystring: OrganizationListQuery,
    success: { status: 200, body: OrganizationList },
    errors: [],
  }),
  createOrganization: defineRoute({
    ...routeTable.createOrganization,
    access: 'admin',
    tags: ['admin-organizations'],
    body: OrganizationCreateBody,
    success: { status: 201, body: Organization },
    errors: [],
  }),
  getOrganization: defineRoute({
    ...routeTable.getOrganization,
    access: 'admin',
    tags: ['admin-organizations'],
    description: 'The organization with its figures (stats).',
    params: IdParams,
    success: { status: 200, body: Organization },
    errors: ['not_found'],
  }),
  updateOrganization: defineRoute({
    ...routeTable.updateOrganization,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Deactivating signs out every account of the organization at once. 409 ' +
      'cannot_deactivate_own_organization when admins deactivate their own organization.',
    params: IdParams,
    body: OrganizationUpdateBody,
    success: { status: 200, body: Organization },
    errors: ['not_found', 'cannot_deactivate_own_organization'],
  }),
  deleteOrganization: defineRoute({
    ...routeTable.deleteOrganization,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Refused with 409 organization_in_use while the organization has any accounts, VR users, ' +
      'devices or sessions (details count them; deactivate it instead). Otherwise deleted ' +
      'together with its scenario access grants and its enrolment code.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'organization_in_use'],
  }),
  organizationAnalytics: defineRoute({
    ...routeTable.organizationAnalytics,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Top 10 VR users, the 20 most used headsets and scenario figures over the ' +
      'organization’s sessions started in the last `days` days (1..365, default 30): whole UTC ' +
      'calendar days ending today, as the statistics count them (start_date..end_date).',
    params: IdParams,
    querystring: OrganizationAnalyticsQuery,
    success: { status: 200, body: OrganizationAnalytics },
    errors: ['not_found'],
  }),

  // ---- Admin: an organisation's single sign-on (docs/sso.md) ----
  getSsoConfig: defineRoute({
    ...routeTable.getSsoConfig,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'The organisation’s identity provider; the client secret is never answered. 404 when ' +
      'the organisation has none.',
    params: IdParams,
    success: { status: 200, body: SsoConfig },
    errors: ['not_found'],
  }),
  putSsoConfig: defineRoute({
    ...routeTable.putSsoConfig,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Sets the organisation’s identity provider, replacing any before. The client secret is ' +
      'stored encrypted. 409 email_domain_taken when a domain belongs to another organisation.',
    params: IdParams,
    body: SsoConfigBody,
    success: { status: 200, body: SsoConfig },
    errors: ['not_found', 'email_domain_taken'],
  }),
  deleteSsoConfig: defineRoute({
    ...routeTable.deleteSsoConfig,
    access: 'admin',
    tags: ['admin-organizations'],
    description: 'Removes the organisation’s single sign-on: its staff sign in by password again.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  startSsoTest: defineRoute({
    ...routeTable.startSsoTest,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'A test sign-in: sends the platform admin’s browser to the organisation’s provider and, ' +
      'back from it, to /admin/organizations/:id?sso_test=<testId>. Nobody is signed in.',
    params: IdParams,
    success: { status: 302, redirect: "the provider's sign-in" },
    errors: ['not_found'],
  }),
  getSsoTest: defineRoute({
    ...routeTable.getSsoTest,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'What a test sign-in saw (for 10 minutes): the claims, or the exact reason it failed.',
    params: SsoTestParams,
    success: { status: 200, body: SsoTestResult },
    errors: ['not_found'],
  }),

  // ---- Admin: an organisation's SCIM provisioning token (docs/sso.md) ----
  getScimToken: defineRoute({
    ...routeTable.getScimToken,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Whether the organisation has a SCIM token: its name, when it was issued and last used, ' +
      'and the SCIM base URL. Never the token.',
    params: IdParams,
    success: { status: 200, body: ScimTokenState },
    errors: ['not_found'],
  }),
  issueScimToken: defineRoute({
    ...routeTable.issueScimToken,
    access: 'admin',
    tags: ['admin-organizations'],
    description:
      'Issues the organisation’s SCIM token, replacing any before (rotation: the old one stops ' +
      'at once). The token is answered this once and stored hashed.',
    params: IdParams,
    body: ScimTokenBody,
    success: { status: 201, body: ScimTokenIssued },
    errors: ['not_found'],
  }),
  revokeScimToken: defineRoute({
    ...routeTable.revokeScimToken,
    access: 'admin',
    tags: ['admin-organizations'],
    description: 'Revokes the organisation’s SCIM token: its directory is refused (401) from now.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),

  // ---- Admin: accounts ----
  listAccounts: defineRoute({
    ...routeTable.listAccounts,
    access: 'admin',
    tags: ['admin-users'],
    description:
      'A page of accounts; filters combine, `q` is a case-insensitive literal substring of ' +
      'the email.',
    querystring: AccountListQuery,
    success: { status: 200, body: AccountList },
    errors: [],
  }),
  createAccount: defineRoute({
    ...routeTable.createAccount,
    access: 'admin',
    tags: ['admin-users'],
    description:
      '409 email_taken when the email is in use (case-insensitive); 400 when organization_id ' +
      'matches no organization.',
    body: AccountCreateBody,
    success: { status: 201, body: Account },
    errors: ['email_taken', 'password_too_common'],
  }),
  getAccount: defineRoute({
    ...routeTable.getAccount,
    access: 'admin',
    tags: ['admin-users'],
    params: IdParams,
    success: { status: 200, body: Account },
    errors: ['not_found'],
  }),
  updateAccount: defineRoute({
    ...routeTable.updateAccount,
    access: 'admin',
    tags: ['admin-users'],
    description:
      'Deactivating it, changing its role or moving it to another organization signs the account ' +
      'out everywhere at once (its live streams end). 409 cannot_modify_self when ' +
      'admins deactivate or demote their own account; 409 email_taken.',
    params: IdParams,
    body: AccountUpdateBody,
    success: { status: 200, body: Account },
    errors: ['not_found', 'cannot_modify_self', 'email_taken'],
  }),
  deleteAccount: defineRoute({
    ...routeTable.deleteAccount,
    access: 'admin',
    tags: ['admin-users'],
    description:
      'Removes the account and its tokens; sessions it started keep started_by_email. ' +
      '409 cannot_delete_self for the caller’s own account.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'cannot_delete_self'],
  }),
  changePassword: defineRoute({
    ...routeTable.changePassword,
    access: 'admin',
    tags: ['admin-users'],
    description:
      'Sets a new password and revokes the account’s tokens (all but the caller’s current one ' +
      'when admins change their own).',
    params: IdParams,
    body: AccountPasswordBody,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'password_too_common'],
  }),

  // ---- Admin: all devices ----
  listAllDevices: defineRoute({
    ...routeTable.listAllDevices,
    access: 'admin',
    tags: ['admin: devices'],
    description:
      'Devices of every organisation, a page at a time, optionally filtered; `q` matches the ' +
      'device’s or its organisation’s name. `summary` counts them by status under the ' +
      'filters other than status and q.',
    querystring: AdminDeviceListQuery,
    success: { status: 200, body: AdminDeviceList },
    errors: [],
  }),
  adminDeleteDevice: defineRoute({
    ...routeTable.adminDeleteDevice,
    access: 'admin',
    tags: ['admin: devices'],
    description: 'Refused with 409 device_in_session while the device has an active session.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'device_in_session'],
  }),
  bulkDeleteDevices: defineRoute({
    ...routeTable.bulkDeleteDevices,
    access: 'admin',
    tags: ['admin: devices'],
    description:
      'Deletes the listed devices that exist and are not in a session; the others are ' +
      'answered in skipped with a reason, and do not fail the call.',
    body: BulkDeleteDevicesBody,
    success: { status: 200, body: BulkDeleteDevicesResponse },
    errors: [],
  }),

  // ---- Admin: content ----
  listScenarios: defineRoute({
    ...routeTable.listScenarios,
    access: 'admin',
    tags: ['content'],
    description: 'A page of scenarios; `q` matches the name or the description.',
    querystring: ScenarioListQuery,
    success: { status: 200, body: ScenarioList },
    errors: [],
  }),
  createScenario: defineRoute({
    ...routeTable.createScenario,
    access: 'admin',
    tags: ['content'],
    body: CreateScenarioBody,
    success: { status: 201, body: ScenarioSummary },
    errors: [],
  }),
  getScenario: defineRoute({
    ...routeTable.getScenario,
    access: 'admin',
    tags: ['content'],
    description:
      'The scenario with its modules (by order_index), their levels (by level_number) and ' +
      'their options (by order_index).',
    params: IdParams,
    success: { status: 200, body: ScenarioDetail },
    errors: ['not_found'],
  }),
  updateScenario: defineRoute({
    ...routeTable.updateScenario,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    body: UpdateScenarioBody,
    success: { status: 200, body: ScenarioSummary },
    errors: ['not_found'],
  }),
  deleteScenario: defineRoute({
    ...routeTable.deleteScenario,
    access: 'admin',
    tags: ['content'],
    description:
      'Deletes the scenario and, deliberately, everything under it: its modules, levels, level ' +
      'options and every organisation’s access grant. Sessions that ran it are kept: they ' +
      'hold copies of the scenario, module and level names, and their references to the ' +
      'deleted rows become null (ON DELETE SET NULL), so history and statistics survive.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  listModules: defineRoute({
    ...routeTable.listModules,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    querystring: ModuleListQuery,
    success: { status: 200, body: ModuleList },
    errors: ['not_found'],
  }),
  createModule: defineRoute({
    ...routeTable.createModule,
    access: 'admin',
    tags: ['content'],
    description: 'Without order_index the module goes after the scenario’s last one.',
    params: IdParams,
    body: CreateModuleBody,
    success: { status: 201, body: ContentModule },
    errors: ['not_found'],
  }),
  updateModule: defineRoute({
    ...routeTable.updateModule,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    body: UpdateModuleBody,
    success: { status: 200, body: ContentModule },
    errors: ['not_found'],
  }),
  deleteModule: defineRoute({
    ...routeTable.deleteModule,
    access: 'admin',
    tags: ['content'],
    description:
      'Deletes the module with its levels and options; sessions keep their copied names.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  listLevels: defineRoute({
    ...routeTable.listLevels,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    querystring: LevelListQuery,
    success: { status: 200, body: LevelList },
    errors: ['not_found'],
  }),
  createLevel: defineRoute({
    ...routeTable.createLevel,
    access: 'admin',
    tags: ['content'],
    description: '409 level_number_taken when another level of the module has the number.',
    params: IdParams,
    body: CreateLevelBody,
    success: { status: 201, body: ContentLevel },
    errors: ['not_found', 'level_number_taken'],
  }),
  updateLevel: defineRoute({
    ...routeTable.updateLevel,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    body: UpdateLevelBody,
    success: { status: 200, body: ContentLevel },
    errors: ['not_found', 'level_number_taken'],
  }),
  deleteLevel: defineRoute({
    ...routeTable.deleteLevel,
    access: 'admin',
    tags: ['content'],
    description: 'Deletes the level with its options; sessions keep their copied names.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  listLevelOptions: defineRoute({
    ...routeTable.listLevelOptions,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    querystring: LevelOptionListQuery,
    success: { status: 200, body: LevelOptionList },
    errors: ['not_found'],
  }),
  createLevelOption: defineRoute({
    ...routeTable.createLevelOption,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    body: CreateLevelOptionBody,
    success: { status: 201, body: LevelOption },
    errors: ['not_found'],
  }),
  updateLevelOption: defineRoute({
    ...routeTable.updateLevelOption,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    body: UpdateLevelOptionBody,
    success: { status: 200, body: LevelOption },
    errors: ['not_found'],
  }),
  deleteLevelOption: defineRoute({
    ...routeTable.deleteLevelOption,
    access: 'admin',
    tags: ['content'],
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),

  // ---- Admin: scenario access ----
  scenarioAccess: defineRoute({
    ...routeTable.scenarioAccess,
    access: 'admin',
    tags: ['scenario-access'],
    description:
      'A page of scenarios (`q` matches the name), each with the first 10 organisations ' +
      'holding a grant (by name), how many hold one, how many have access and how many ' +
      'organisations there are. has_access is true when the grant has no expiry or expires ' +
      'later than now; an expired grant is listed with has_access false and its dates.',
    querystring: ScenarioAccessQuery,
    success: { status: 200, body: ScenarioAccessMatrix },
    errors: [],
  }),
  scenarioGrants: defineRoute({
    ...routeTable.scenarioGrants,
    access: 'admin',
    tags: ['scenario-access'],
    description:
      "A page of one scenario's grants, live and expired (`q` matches the organisation's " +
      'name); 404 for an unknown scenario.',
    params: IdParams,
    querystring: ScenarioGrantsQuery,
    success: { status: 200, body: ScenarioGrantsPage },
    errors: ['not_found'],
  }),
  grantAccess: defineRoute({
    ...routeTable.grantAccess,
    access: 'admin',
    tags: ['scenario-access'],
    description:
      'Grants the scenario to the organisations until expires_at. Re-granting replaces the ' +
      'expiry, the grant time and the granting admin. 400 when expires_at is in the past; ' +
      '404 for an unknown scenario or organisation (nothing is granted then).',
    params: IdParams,
    body: GrantAccessBody,
    success: { status: 200, body: GrantAccessResponse },
    errors: ['not_found'],
  }),
  revokeAccess: defineRoute({
    ...routeTable.revokeAccess,
    access: 'admin',
    tags: ['scenario-access'],
    description:
      'Removes the grants of the listed organisations (those without one are ignored), or ' +
      'with {"all_with_access": true} the grant of every organisation that has access now.',
    params: IdParams,
    body: RevokeAccessBody,
    success: { status: 200, body: RevokeAccessResponse },
    errors: ['not_found'],
  }),

  // ---- Admin: app builds ----
  listBuilds: defineRoute({
    ...routeTable.listBuilds,
    access: 'admin',
    tags: ['vr-app'],
    success: { status: 200, body: AppBuildList },
    errors: [],
  }),
  uploadBuild: defineRoute({
    ...routeTable.uploadBuild,
    access: 'admin',
    tags: ['vr-app'],
    description:
      'The request body is the raw APK (content-type application/vnd.android.package-archive ' +
      'or application/octet-stream, at most 2 GiB); `version` is the admin’s label for it. It ' +
      'replaces the platform’s build once fully received; an interrupted upload leaves the ' +
      'previous build in place.',
    params: AppPlatformParams,
    querystring: AppBuildUploadQuery,
    success: { status: 201, body: AppBuild },
    errors: ['bad_request', 'payload_too_large', 'unsupported_media_type', 'storage_unavailable'],
  }),

  // ---- Admin: statistics ----
  globalStats: defineRoute({
    ...routeTable.globalStats,
    access: 'admin',
    tags: ['admin-stats'],
    description:
      'All-time figures over every session; today/week/month are UTC, weeks start on Monday.',
    success: { status: 200, body: GlobalStats },
    errors: [],
  }),
  rangeStats: defineRoute({
    ...routeTable.rangeStats,
    access: 'admin',
    tags: ['admin-stats'],
    description:
      'The same figures over sessions started within start_date..end_date (UTC days, inclusive, ' +
      'at most 366), with a daily series covering every day, device types and the top 5 ' +
      'organisations.',
    querystring: StatsRangeQuery,
    success: { status: 200, body: StatsRange },
    errors: [],
  }),
  exportStats: defineRoute({
    ...routeTable.exportStats,
    access: 'admin',
    tags: ['admin-stats'],
    description:
      'The range figures as a CSV file (UTF-8 with byte-order mark). Dates default to the last ' +
      '30 days ending today (UTC); csv is the only format. ' +
      READER_CSV,
    querystring: StatsExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: [],
  }),

  // ---- The organisation's statistics (staff and the auditor: their own organisation) ----
  organizationStats: defineRoute({
    ...routeTable.organizationStats,
    access: 'reader',
    tags: ['stats'],
    description:
      'The caller’s organisation’s figures over its sessions started within ' +
      'start_date..end_date (UTC days, inclusive, at most 366; by default the last 30 days ' +
      'ending today), counted as the global statistics count them, with a daily series ' +
      'covering every day and its headset types. The organisation is the caller’s own; no ' +
      'parameter names another.',
    querystring: OrganizationStatsQuery,
    success: { status: 200, body: OrganizationStatsRange },
    errors: [],
  }),
  exportOrganizationStats: defineRoute({
    ...routeTable.exportOrganizationStats,
    access: 'reader',
    tags: ['stats'],
    description:
      'The caller’s organisation’s range figures as a CSV file (UTF-8 with byte-order mark). ' +
      'Dates default to the last 30 days ending today (UTC); csv is the only format. ' +
      READER_CSV,
    querystring: StatsExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: [],
  }),

  // ---- Audit log (docs/logging.md) ----
  listAuditEvents: defineRoute({
    ...routeTable.listAuditEvents,
    access: 'reader',
    tags: ['audit'],
    description:
      'The audit log, newest first, a page at a time by cursor (next_cursor, null on the last ' +
      'page). Staff read their organisation’s events; admins every organisation’s and the ' +
      'platform’s, or one organisation’s with organization_id (404 for another organisation ' +
      'asked by staff). Filters: actor_id, action (dotted prefix), target_id, from/to (a UTC ' +
      'day, whole, or an instant: from inclusive, to exclusive).',
    querystring: AuditEventListQuery,
    success: { status: 200, body: AuditEventPage },
    errors: ['not_found'],
  }),
  exportAuditEvents: defineRoute({
    ...routeTable.exportAuditEvents,
    access: 'reader',
    tags: ['audit'],
    description:
      'Every event matching the same filters as GET /v1/audit-events, newest first, as CSV ' +
      '(UTF-8 with a byte-order mark, cells safe from formula injection, changes as one JSON ' +
      'cell). Streamed, whatever its size.',
    querystring: AuditEventExportQuery,
    success: { status: 200, file: 'text/csv' },
    errors: ['not_found'],
  }),
  verifyAudit: defineRoute({
    ...routeTable.verifyAudit,
    access: 'admin',
    tags: ['audit'],
    description:
      'Walks every chain of the audit log from its checkpoint (the retention purge leaves one) ' +
      'and answers whether each event still matches its hash and links to the one before; if ' +
      'not, the first event that does not, and its chain’s organisation.',
    success: { status: 200, body: AuditVerifyResult },
    errors: [],
  }),

  // ---- Integrations: results out (docs/integrations.md) ----
  listIntegrations: defineRoute({
    ...routeTable.listIntegrations,
    access: 'reader',
    tags: ['integrations'],
    description:
      'The organisation’s webhooks and learning record stores, oldest first. Staff see their ' +
      'own organisation’s; admins theirs, or another’s with organization_id.',
    querystring: IntegrationListQuery,
    success: { status: 200, body: IntegrationList },
    errors: ['not_found'],
  }),
  createIntegration: defineRoute({
    ...routeTable.createIntegration,
    access: 'user',
    tags: ['integrations'],
    description:
      'kind webhook: url and events; answers the signing secret (whsec_…) once. kind xapi: url ' +
      '(the LRS endpoint), key and secret (Basic auth); receives session.finished as xAPI 1.0.3 ' +
      'statements. Admins may give organization_id.',
    body: IntegrationCreateBody,
    success: { status: 201, body: IntegrationWithSecret },
    errors: ['not_found', 'outbound_address_refused', 'quota_exceeded'],
  }),
  getIntegration: defineRoute({
    ...routeTable.getIntegration,
    access: 'reader',
    tags: ['integrations'],
    params: IdParams,
    success: { status: 200, body: Integration },
    errors: ['not_found'],
  }),
  updateIntegration: defineRoute({
    ...routeTable.updateIntegration,
    access: 'user',
    tags: ['integrations'],
    description:
      'Changes the given fields. enabled: false disables (reason by_user; pending deliveries are ' +
      'abandoned); enabled: true re-enables and clears the reason.',
    params: IdParams,
    body: IntegrationUpdateBody,
    success: { status: 200, body: Integration },
    errors: ['not_found', 'outbound_address_refused'],
  }),
  deleteIntegration: defineRoute({
    ...routeTable.deleteIntegration,
    access: 'user',
    tags: ['integrations'],
    description: 'Deletes the integration and its delivery log.',
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  rotateIntegrationSecret: defineRoute({
    ...routeTable.rotateIntegrationSecret,
    access: 'user',
    tags: ['integrations'],
    description:
      'A new signing secret, answered once; for 24 hours webhooks carry signatures by both the ' +
      'new and the previous secret. xapi: 404 (its secret is the LRS’s; PATCH it).',
    params: IdParams,
    success: { status: 200, body: IntegrationWithSecret },
    errors: ['not_found'],
  }),
  revokePreviousIntegrationSecret: defineRoute({
    ...routeTable.revokePreviousIntegrationSecret,
    access: 'user',
    tags: ['integrations'],
    description:
      'Ends the previous signing secret’s 24 hours now (it leaked, say): from the next send on, ' +
      'only the current secret signs. xapi: 404.',
    params: IdParams,
    success: { status: 200, body: Integration },
    errors: ['not_found'],
  }),
  testIntegration: defineRoute({
    ...routeTable.testIntegration,
    access: 'user',
    tags: ['integrations'],
    description:
      'Sends a signed integration.test event now (xapi: reads <url>/statements?limit=1 with ' +
      'its credentials) and answers what the receiver said (its status and headers; the first ' +
      '1 KB of its body unless it is at a private address). Not logged as a delivery. At most ' +
      '5 a minute per integration.',
    params: IdParams,
    success: { status: 200, body: IntegrationTestResult },
    errors: ['not_found', 'rate_limited'],
  }),
  listDeliveries: defineRoute({
    ...routeTable.listDeliveries,
    access: 'reader',
    tags: ['integrations'],
    description:
      'The delivery log (30 days), newest first, by cursor (next_cursor, null on the last page); ' +
      'filters event and status.',
    params: IdParams,
    querystring: DeliveryListQuery,
    success: { status: 200, body: DeliveryPage },
    errors: ['not_found'],
  }),
  redeliver: defineRoute({
    ...routeTable.redeliver,
    access: 'user',
    tags: ['integrations'],
    description:
      'Sends the event again, now, with the same webhook-id (statement ids for xAPI): the ' +
      'delivery becomes pending with its attempt count kept.',
    params: DeliveryParams,
    success: { status: 200, body: Delivery },
    errors: ['not_found', 'integration_disabled'],
  }),
  ...qualificationRoutes,
  ...lmsRoutes,
  ...mfaRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
