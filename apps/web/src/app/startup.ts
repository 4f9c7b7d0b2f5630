import { checkSignInEarly } from '../auth/AuthProvider';
import { preloadSignedIn } from './routes';

/**
 * What the console starts before its first render, so that nothing of a signed-in page waits on
 * the page before it: the sign-in check, and — on any page but /login — the layout's and the
 * page's code and dictionary, fetched while the check is under way. A visitor who turns out to be
 * signed out goes to /login and, once signed in, back to this page (`?next=`), which is then
 * already loaded.
 */
export function startEarly(path: string, preload: (path: string) => void = preloadSignedIn): void {
  checkSignInEarly();
  const { pathname } = new URL(path, window.location.origin);
  if (pathname === '/login' || pathname.startsWith('/login/')) return;
  preload(path);
}
