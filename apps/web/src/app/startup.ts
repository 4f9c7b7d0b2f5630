import { checkSignInEarly } from '../auth/AuthProvider';
import { preloadSignedIn } from './routes';

/**
 * What the console starts before its first render, so that nothing of a signed-in page waits on
 * the page before it: the sign-in check, and — on any page but /login — the layout's and the
 * page's code and dictionary, fetched while the check is under way. A visitor who turns out to be
 * signed out goes to /login and, once signed in, back to this page (`?next=`), which is then
 * already loaded.
 */
/**
 * Pages that are no signed-in page: the sign-in itself, and a certificate's public pages (its QR's
 * verify page, its printable sheet), which a phone opens without an account and which load none of
 * the signed-in layout.
 */
const NOT_SIGNED_IN = ['/login', '/verify', '/certificates'];

export function startEarly(path: string, preload: (path: string) => void = preloadSignedIn): void {
  checkSignInEarly();
  const { pathname } = new URL(path, window.location.origin);
  if (NOT_SIGNED_IN.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)))
    return;
  preload(path);
}
