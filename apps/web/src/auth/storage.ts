import type { Me } from '@vrtc/contract';

/**
 * The specification's local-storage key for the signed-in user. It holds the profile only, never
 * the token: the sign-in itself is an httpOnly cookie no script can read (decision 025), and
 * whether it still holds is asked of the server (GET /v1/auth/session), not of this key.
 */
export const STORAGE_KEY = 'vr_user';

export function readStoredUser(): Me | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as { user?: unknown };
    if (!parsed.user || typeof parsed.user !== 'object') return undefined;
    return parsed.user as Me;
  } catch {
    return undefined;
  }
}

/** Stores the user, and nothing else: a token kept by an earlier version is dropped here. */
export function writeStoredUser(user: Me): void {
  const { id, email, role, organization_id, organization_name } = user;
  localStorage.setItem(
    STORAGE_KEY,
    JSON.stringify({ user: { id, email, role, organization_id, organization_name } }),
  );
}

export function clearStoredUser(): void {
  localStorage.removeItem(STORAGE_KEY);
}
