import type { SsoDiscoverBody } from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import { takeAttempt } from '../platform/service/rate-limit.ts';
import { SsoFailure, configOf } from './sso-sign-in.ts';

/** Lookups per client address per minute: a sign-in page needs one or two, a scan needs many. */
export const DISCOVER_MAX_PER_MINUTE = 30;
const DISCOVER_WINDOW_MS = 60 * 1000;

/**
 * What the sign-in page learns from an email before any password: whether its domain signs in by
 * single sign-on and whether only by it. An unknown domain and an incomplete configuration both
 * answer false, so the answer names no organisation and tells nothing else.
 */
export async function discoverSso(
  ctx: ServiceContext,
  email: string,
  address: string | null,
): Promise<SsoDiscoverBody> {
  await takeAttempt(ctx.db, ctx.clock.now(), [
    {
      key: `sso-discover:${address ?? ''}`,
      max: DISCOVER_MAX_PER_MINUTE,
      windowMs: DISCOVER_WINDOW_MS,
    },
  ]);
  try {
    const row = await configOf(ctx, { email });
    return { sso: true, enforced: row.enforced };
  } catch (error) {
    if (error instanceof SsoFailure) return { sso: false, enforced: false };
    throw error;
  }
}
