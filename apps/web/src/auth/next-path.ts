/** Where a sign-in goes when no other page was asked for. */
export const HOME_PATH = '/vr-users';

/** The query parameter of /login that names the page to return to after signing in. */
export const NEXT_PARAM = 'next';

const LOGIN_PATH = '/login';
// Any origin will do: a path that stays on it is a path of this console.
const SAME_ORIGIN = 'https://console.invalid';

/**
 * The page a sign-in returns to, from /login's `next` parameter: only a path of this console
 * ("/vr-users/…?…"), never another site ("//evil.example", "https://…", "/\evil", "javascript:…")
 * nor /login itself. Anything else is refused: `undefined`, and the sign-in goes home.
 */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000) return undefined;
  // A path, and not one a browser reads as another host ("//host", "/\host" and their tricks).
  if (!next.startsWith('/') || next.startsWith('//')) return undefined;
  // Backslashes, tabs and new lines are turned into slashes or dropped by URL parsers.
  if (next.includes('\\') || [...next].some((char) => char < ' ' || char === '\u007f')) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(next, SAME_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== SAME_ORIGIN) return undefined;
  if (url.pathname === LOGIN_PATH || url.pathname.startsWith(`${LOGIN_PATH}/`)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /login, naming the page asked for when it is not the home page (the default return). */
export function loginPath(asked: { pathname: string; search?: string; hash?: string }): string {
  const path = `${asked.pathname}${asked.search ?? ''}${asked.hash ?? ''}`;
  if (path === '/' || path === HOME_PATH || !safeNextPath(path)) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ [NEXT_PARAM]: path }).toString()}`;
}

/** Where /login (its query string `search`) sends the user once signed in. */
export function afterSignIn(search: string): string {
  return safeNextPath(new URLSearchParams(search).get(NEXT_PARAM)) ?? HOME_PATH;
}
