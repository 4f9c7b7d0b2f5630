import { Type, type Static } from 'typebox';

/**
 * Every error the API answers, with its one HTTP status and when it happens. The server's error
 * handler, the console's translations (an `errors:` key per code in each language) and the table
 * in docs/api.md are all checked against this list, so a new code that one of them lacks fails a
 * test or the typecheck.
 */
export const ERRORS = {
  validation_error: {
    status: 400,
    when: 'a field is missing, unknown or malformed, out of range, too long, or holds text the database cannot store (NUL, unpaired surrogates); the message names the field',
  },
  bad_request: { status: 400, when: 'malformed JSON, or a request the server cannot read' },
  enrollment_code_invalid: {
    status: 400,
    when: 'a headset presents a wrong, expired or revoked enrolment code',
  },
  launch_pin_invalid: {
    status: 400,
    when: 'a headset enters a PIN that no launch of its organisation is waiting with (wrong, expired or already used)',
  },
  level_not_available: {
    status: 400,
    when: 'a qualification names a level of a scenario its organisation has no access to (or no such level)',
  },
  unauthorized: {
    status: 401,
    when: 'no token, or an unknown, expired or revoked one, or a token of a deactivated account or organisation',
  },
  invalid_credentials: {
    status: 401,
    when: 'wrong email or password (the same answer whether the email exists or not)',
  },
  forbidden: {
    status: 403,
    when: 'a client token on /v1/admin/*; a deactivated account or organisation signing in',
  },
  mfa_invalid: {
    status: 401,
    when: 'a second factor (authenticator code, recovery code or passkey) that is wrong, used already, or for a sign-in step that has expired (counted as a failed sign-in)',
  },
  password_too_common: {
    status: 400,
    when: 'a new password is on the list of common and breached passwords the server ships (compared without regard to case)',
  },
  wrong_current_password: {
    status: 403,
    when: 'an account changing its own password gives a wrong current one (counted as a failed sign-in)',
  },
  signature_rejected: {
    status: 403,
    when: 'the password re-entered to sign an evaluation is wrong: nothing is stored (counted as a failed sign-in)',
  },
  cross_site_request: {
    status: 403,
    when: "a change (POST, PUT, PATCH, DELETE) signed in by the console's cookie whose Origin is missing or not the console's own; a sign-in from another site's page",
  },
  lms_key_invalid: {
    status: 403,
    when: "an LMS package's key that is unknown or revoked, or a launch token that is unknown",
  },
  mfa_enrolment_required: {
    status: 403,
    when: 'an account that must have a second factor (its organisation or, for platform admins, the platform requires one) calls anything but its own enrolment before it has one',
  },
  download_link_invalid: { status: 403, when: 'a tampered or expired download link' },
  not_found: {
    status: 404,
    when: 'unknown id, or an id that belongs to another organisation (its existence is never revealed)',
  },
  conflict: { status: 409, when: 'the request clashes with data stored meanwhile' },
  email_taken: { status: 409, when: 'another account already has this email' },
  external_id_taken: {
    status: 409,
    when: 'another VR user of the organisation already has this external id',
  },
  vr_user_has_sessions: { status: 409, when: 'deleting a VR user who has sessions' },
  device_in_session: { status: 409, when: 'deleting a headset during its active session' },
  device_not_waiting: {
    status: 409,
    when: 'starting a session on a headset that is offline or not ready',
  },
  device_busy: { status: 409, when: 'starting a session on a headset that already runs one' },
  session_not_active: {
    status: 409,
    when: 'reporting progress on or cancelling a session that has already ended; a finish of a session that was completed by another report',
  },
  session_cancelled: {
    status: 409,
    when: 'a headset reporting on a session the console cancelled: it stays cancelled, stop playing',
  },
  late_result_window_passed: {
    status: 409,
    when: 'a finish for a session the server ended as disconnected or timeout more than LATE_RESULT_WINDOW_MS ago (details: ended_at)',
  },
  idempotency_key_reused: {
    status: 422,
    when: 'an Idempotency-Key the headset already used for a different report (another route or body)',
  },
  email_domain_taken: {
    status: 409,
    when: "an email domain given for an organisation's single sign-on belongs to another organisation's",
  },
  sso_required: {
    status: 403,
    when: 'a password sign-in of an account whose organisation enforces single sign-on (and which is not exempt)',
  },
  organization_in_use: {
    status: 409,
    when: 'deleting an organisation that still has accounts, VR users, headsets or sessions',
  },
  cannot_delete_self: { status: 409, when: 'an admin deleting their own account' },
  cannot_modify_self: { status: 409, when: 'an admin deactivating or demoting their own account' },
  cannot_deactivate_own_organization: {
    status: 409,
    when: 'an admin deactivating the organisation they belong to',
  },
  level_number_taken: {
    status: 409,
    when: 'another level of the module already has this number (details: level_number)',
  },
  quota_exceeded: {
    status: 409,
    when: 'an organisation at its limit of VR users or headsets, or of enrolment codes issued in a day (details: resource, limit)',
  },
  too_many_streams: {
    status: 429,
    when: 'an account opening more live streams than it may at once, or the server at its limit (details: limit); the console polls instead',
  },
  uri_too_long: {
    status: 414,
    when: 'a path parameter (an id, a platform) over 100 characters',
  },
  payload_too_large: { status: 413, when: 'a JSON body over 1 MiB; an app build over 2 GiB' },
  unsupported_media_type: {
    status: 415,
    when: 'an app build not sent as an APK (content type, or a file that is not a ZIP archive)',
  },
  rate_limited: {
    status: 429,
    when: 'too many failed sign-ins (in 15 minutes: 5 per address and account, 100 per address; an address is an IPv4 address or an IPv6 /64) or wrong enrolment codes (300 per address); Retry-After says when to try again',
  },
  outbound_address_refused: {
    status: 422,
    when: 'an integration URL whose host is, or resolves to, a loopback, private, link-local or metadata address that OUTBOUND_ALLOW_PRIVATE does not list',
  },
  integration_disabled: {
    status: 409,
    when: 'redelivering an event of a disabled integration: enable it first',
  },
  internal_error: { status: 500, when: 'a bug: no input, however malformed, should produce it' },
  service_unavailable: {
    status: 503,
    when: 'the database cannot be reached, or the server is shutting down; retry later',
  },
  storage_unavailable: {
    status: 503,
    when: 'the server cannot write (disk full or storage unavailable); nothing was saved, retry once space is freed',
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export const errorStatus = (code: ErrorCode): number => ERRORS[code].status;

/** Values a message is built from (a count, a name, a limit, the field), for translated texts. */
export const ErrorDetails = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
);
export type ErrorDetails = Static<typeof ErrorDetails>;

export const ErrorBody = Type.Object({
  error: Type.Enum(ERROR_CODES, { description: 'machine-readable code (see docs/api.md)' }),
  message: Type.String({ description: 'readable English text; clients show their own wording' }),
  details: Type.Optional(ErrorDetails),
});
export type ErrorBody = Static<typeof ErrorBody>;
