import { useEffect, useState } from 'react';

/** What the server says of an email's domain (GET /v1/auth/sso/discover). */
export interface SsoDiscovery {
  sso: boolean;
  enforced: boolean;
}

const NONE: SsoDiscovery = { sso: false, enforced: false };

/** What is known of one email's domain. */
interface Found {
  email: string;
  discovery: SsoDiscovery;
}

const NOTHING_FOUND: Found = { email: '', discovery: NONE };

/** Asked once typing pauses, not at every key (the route is limited per address). */
const PAUSE_MS = 350;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function discoverSso(email: string): Promise<SsoDiscovery> {
  try {
    const query = new URLSearchParams({ email });
    const response = await fetch(`/v1/auth/sso/discover?${query.toString()}`, {
      credentials: 'same-origin',
    });
    if (!response.ok) return NONE;
    const body = (await response.json()) as Partial<SsoDiscovery>;
    return { sso: body.sso === true, enforced: body.enforced === true };
  } catch {
    // No answer means password sign-in as before; the server still says sso_required if it must.
    return NONE;
  }
}

/**
 * The sign-in page's question, asked with the email before any password: offer "Continue with
 * single sign-on" only for a domain that has it, and only it when the organisation enforces it.
 * `learn` lets the page record what a 403 sso_required taught it: that outranks the question's
 * answer for the same email, which may still arrive after it (or fail, and know nothing).
 */
export function useSsoDiscovery(email: string) {
  const [found, setFound] = useState<Found>(NOTHING_FOUND);
  const [taught, setTaught] = useState<Found>(NOTHING_FOUND);
  const trimmed = email.trim().toLowerCase();
  useEffect(() => {
    if (!EMAIL.test(trimmed)) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      void discoverSso(trimmed).then((discovery) => {
        if (current) setFound({ email: trimmed, discovery });
      });
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [trimmed]);
  const discovery =
    taught.email === trimmed ? taught.discovery : found.email === trimmed ? found.discovery : NONE;
  const learn = (next: SsoDiscovery) => setTaught({ email: trimmed, discovery: next });
  return { discovery, learn };
}
