import type { ErrorCode, ErrorDetails } from '@vrtc/contract';
import { ApiError } from './api-error';
import i18n from '../i18n';
import { formatBytes } from './bytes';

/**
 * The text a user reads when something fails, in the console's language:
 *
 * - a failure the server explained with a code the console knows: that code's own sentence
 *   (`errors:codes.<code>`), its blanks filled from the error's `details` (a name, a count, a
 *   limit, the field);
 * - a code the console does not know: the server's English message, the last resort;
 * - anything else (no answer, a body without a code): `fallback`, the screen's own generic text
 *   ("Failed to delete device", "An error occurred", …, as the specification names them).
 */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code) return codeText(error.code, error.details ?? {});
  return error.serverMessage || fallback;
}

/** The error's code when it is one of `codes` (e.g. to act on a refusal as well as word it). */
export function errorCodeOf<C extends ErrorCode>(
  error: unknown,
  codes: readonly C[],
): C | undefined {
  if (!(error instanceof ApiError) || !error.code) return undefined;
  return (codes as readonly ErrorCode[]).includes(error.code) ? (error.code as C) : undefined;
}

const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {});

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** What an organisation still holds, from the counts given: "2 accounts, 5 sessions". */
export interface Holdings {
  accounts?: number;
  vr_users?: number;
  devices?: number;
  sessions?: number;
}

export function holdingsText(holdings: Holdings): string {
  const parts = (['accounts', 'vr_users', 'devices', 'sessions'] as const)
    .filter((key) => (holdings[key] ?? 0) > 0)
    .map((key) => t(`errors:holdings.${key}`, { count: holdings[key] }));
  return parts.length > 0 ? parts.join(', ') : t('errors:holdings.data');
}

function codeText(code: ErrorCode, details: ErrorDetails): string {
  switch (code) {
    case 'validation_error':
      return validationText(details);
    case 'vr_user_has_sessions':
      return t('errors:codes.vr_user_has_sessions', {
        name: str(details.name) ?? '',
        count: num(details.count) ?? 1,
      });
    case 'organization_in_use':
      return t('errors:codes.organization_in_use', {
        name: str(details.name) ?? '',
        holdings: holdingsText({
          accounts: num(details.accounts),
          vr_users: num(details.vr_users),
          devices: num(details.devices),
          sessions: num(details.sessions),
        }),
      });
    case 'quota_exceeded': {
      const resource = str(details.resource);
      const limit = num(details.limit);
      if (limit !== undefined && i18n.exists(`errors:quota.${resource}_one`)) {
        return t(`errors:quota.${resource}`, { count: limit });
      }
      return t('errors:codes.quota_exceeded');
    }
    case 'level_number_taken':
      return t('errors:codes.level_number_taken', {
        level_number: num(details.level_number) ?? '',
      });
    case 'rate_limited': {
      const seconds = num(details.retry_after_seconds);
      return seconds === undefined
        ? t('errors:codes.rate_limited')
        : t('errors:retryIn', { count: Math.max(1, Math.ceil(seconds / 60)) });
    }
    case 'session_not_active': {
      const status = str(details.status);
      return t('errors:codes.session_not_active', {
        status: status
          ? t(`common:status.${status}`, { defaultValue: status }).toLocaleLowerCase(i18n.language)
          : t('errors:sessionStatus.unknown'),
      });
    }
    case 'payload_too_large': {
      const limit = num(details.limit_bytes);
      return limit === undefined
        ? t('errors:codes.payload_too_large')
        : t('errors:payloadLimit', { limit: formatBytes(limit, i18n.language) });
    }
    default:
      return t(`errors:codes.${code}`);
  }
}

/** "Please fill in “Name”.", from { field: 'body.name', rule: 'required' }. */
function validationText(details: ErrorDetails): string {
  const path = str(details.field);
  if (!path) return t('errors:codes.validation_error');
  // body.name, querystring.from, body.organization_ids.0 → the field's own name.
  const parts = path.split('.').filter((part) => !/^\d+$/.test(part));
  const name = parts.length > 1 ? parts.slice(1).join('.') : parts[0]!;
  const field = t(`errors:fields.${name}`, { defaultValue: name });
  const rule = str(details.rule) ?? 'other';
  const limit = num(details.limit);
  if (rule === 'minLength' || rule === 'maxLength') {
    return limit === undefined
      ? t('errors:validation.other', { field })
      : t(`errors:validation.${rule}`, { field, count: limit });
  }
  const key = `errors:validation.${rule}`;
  return i18n.exists(key)
    ? t(key, { field, limit: limit ?? '', allowed: str(details.allowed) ?? '' })
    : t('errors:validation.other', { field });
}
