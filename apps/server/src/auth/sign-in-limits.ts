import type { ServiceContext } from '../platform/service/context.ts';
import {
  clearRateLimit,
  countAttempt,
  refundAttempt,
  refuseOverLimit,
  takeAttempt,
  type Limit,
} from '../platform/service/rate-limit.ts';
import { addressPrefix } from '../platform/service/address-prefix.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';

/**
 * Sign-in limits (decision 008, docs/operations.md), failures per 15 minutes, an address being an
 * IPv4 address or an IPv6 /64 (addressPrefix). Strict per address and account: one client guessing
 * one account's password. Loose per address (every account): one site's NAT, all its staff behind
 * one address, is not locked out by a few typos. Per account (every address) nothing is refused:
 * past the threshold a sign-in from a browser the account never used waits LOGIN_SLOW_DELAY_MS
 * before its password is checked, so strangers failing from many addresses slow themselves and
 * cannot lock the owner out. A known browser (known-device.ts) is counted on its own, apart from
 * its address.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT = 5;
export const LOGIN_SLOW_AFTER_ACCOUNT_FAILURES = 50;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 100;

/** Where a sign-in attempt comes from: the request, and the known browser's id if it is one. */
export interface SignInSource {
  request: RequestFacts;
  knownDevice?: string;
}

export const accountKey = (email: string) => email.trim().toLowerCase();

export function loginLimits(email: string, ip: string, knownDevice?: string) {
  const account = accountKey(email);
  const address = addressPrefix(ip);
  const limit = (key: string, max: number): Limit => ({ key, max, windowMs: LOGIN_WINDOW_MS });
  return {
    pair: knownDevice
      ? limit(
          `login:device-account:${knownDevice}:${account}`,
          LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
        )
      : limit(
          `login:address-account:${address}:${account}`,
          LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
        ),
    account: limit(`login:account:${account}`, LOGIN_SLOW_AFTER_ACCOUNT_FAILURES),
    address: knownDevice
      ? undefined
      : limit(`login:address:${address}`, LOGIN_MAX_FAILURES_PER_ADDRESS),
  };
}

export type LoginLimits = ReturnType<typeof loginLimits>;

/**
 * Counts a password attempt (a sign-in, or the current password of a password change) before the
 * password is hashed: a parallel burst cannot outrun its own count. The strict limit first, alone:
 * an attempt it refuses is not counted against the loose ones, so an address hammering one
 * account adds at most its strict limit to the account's count. Answers whether the account is
 * past its threshold (the attempt is then slowed unless from a known browser).
 */
export async function countPasswordAttempt(ctx: ServiceContext, now: Date, limits: LoginLimits) {
  await takeAttempt(ctx.db, now, [limits.pair]);
  const counts = await countAttempt(ctx.db, now, [
    limits.account,
    ...(limits.address ? [limits.address] : []),
  ]);
  refuseOverLimit(
    counts.filter((count) => count.limit !== limits.account),
    now,
  );
  return counts.some((count) => count.limit === limits.account && count.hits > count.limit.max);
}

/**
 * The password was right: this address's failures on the account are forgiven, and this attempt
 * was no failure of the account or the address (other addresses' failures still count).
 */
export async function forgivePasswordAttempt(ctx: ServiceContext, now: Date, limits: LoginLimits) {
  await clearRateLimit(ctx.db, [limits.pair.key]);
  await refundAttempt(ctx.db, now, [
    limits.account.key,
    ...(limits.address ? [limits.address.key] : []),
  ]);
}
