import type { Me } from '@vrtc/contract';

/** The specification's local-storage key for the signed-in user and token. */
export const STORAGE_KEY = 'vr_user';

export interface StoredLogin {
  token: string;
  user: Me;
}

export function readStoredLogin(): StoredLogin | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<StoredLogin>;
    if (typeof parsed.token !== 'string' || !parsed.user || typeof parsed.user !== 'object') {
      return undefined;
    }
    return parsed as StoredLogin;
  } catch {
    return undefined;
  }
}

export function writeStoredLogin(login: StoredLogin): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(login));
}

export function clearStoredLogin(): void {
  localStorage.removeItem(STORAGE_KEY);
}
