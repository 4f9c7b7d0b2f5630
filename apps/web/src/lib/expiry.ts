import { DAY_MS } from '@vrtc/contract';
import { formatDate } from './format';

/**
 * The state of an organisation's access to a scenario (specification section 4): expired when the
 * expiry is past, expiring when it falls within the next 30 days, active when later, never when
 * there is no expiry. The scenarios screen and the admin scenario-access screen both show it.
 */

export const EXPIRING_SOON_DAYS = 30;

export type AccessExpiryState = 'expired' | 'expiring' | 'active' | 'never';

export function accessExpiryState(
  expiresAt: string | Date | null | undefined,
  now: Date = new Date(),
): AccessExpiryState {
  if (expiresAt === null || expiresAt === undefined || expiresAt === '') return 'never';
  const expires = expiresAt instanceof Date ? expiresAt.getTime() : Date.parse(expiresAt);
  if (Number.isNaN(expires)) return 'never';
  const remaining = expires - now.getTime();
  // At the very instant of expiry the access has ended (the server treats it so too).
  if (remaining <= 0) return 'expired';
  if (remaining <= EXPIRING_SOON_DAYS * DAY_MS) return 'expiring';
  return 'active';
}

/** Badge colours of the states. */
export const ACCESS_EXPIRY_COLORS: Record<AccessExpiryState, string> = {
  expired: 'red',
  expiring: 'yellow',
  active: 'green',
  never: 'blue',
};

/** Whole days left until the expiry (0 once expired), for "expires in N days". */
export function daysUntil(expiresAt: string | Date, now: Date = new Date()): number {
  const expires = expiresAt instanceof Date ? expiresAt.getTime() : Date.parse(expiresAt);
  return Math.max(0, Math.ceil((expires - now.getTime()) / DAY_MS));
}

/**
 * The day an access ends, as a date ("10.12.2026"). Access ends at 23:59:59 UTC of the day
 * the admin chose: that is the day shown, in every time zone (in Moscow the instant is already
 * the next morning, in New York still the same evening; both read the chosen day).
 */
export function formatExpiryDay(iso: string, language: string): string {
  return formatDate(iso, language, { timeZone: 'UTC' });
}
