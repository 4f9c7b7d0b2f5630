import type { ErrorCode } from '@vrtc/contract';

/**
 * The contract's error codes as a set the console checks at run time. Written out here rather
 * than imported: the contract's runtime module carries its schemas, which the login page's budget
 * has no room for. `satisfies Record<ErrorCode, true>` makes a code missing here (or one the
 * contract no longer has) a compile error, so the two lists cannot drift apart.
 */
const CODES = {
  validation_error: true,
  bad_request: true,
  enrollment_code_invalid: true,
  launch_pin_invalid: true,
  level_not_available: true,
  unauthorized: true,
  invalid_credentials: true,
  forbidden: true,
  mfa_invalid: true,
  password_too_common: true,
  wrong_current_password: true,
  signature_rejected: true,
  cross_site_request: true,
  lms_key_invalid: true,
  mfa_enrolment_required: true,
  download_link_invalid: true,
  not_found: true,
  conflict: true,
  email_taken: true,
  external_id_taken: true,
  vr_user_has_sessions: true,
  device_in_session: true,
  device_not_waiting: true,
  device_busy: true,
  session_not_active: true,
  session_cancelled: true,
  late_result_window_passed: true,
  idempotency_key_reused: true,
  email_domain_taken: true,
  sso_required: true,
  organization_in_use: true,
  cannot_delete_self: true,
  cannot_modify_self: true,
  cannot_deactivate_own_organization: true,
  level_number_taken: true,
  quota_exceeded: true,
  too_many_streams: true,
  uri_too_long: true,
  payload_too_large: true,
  unsupported_media_type: true,
  rate_limited: true,
  outbound_address_refused: true,
  integration_disabled: true,
  internal_error: true,
  service_unavailable: true,
  storage_unavailable: true,
} as const satisfies Record<ErrorCode, true>;

/** Every code the console knows (each has a text in both languages: errors:codes.<code>). */
export const KNOWN_ERROR_CODES = Object.keys(CODES) as ErrorCode[];

export function isKnownErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(CODES, code);
}
