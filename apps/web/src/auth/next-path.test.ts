import { describe, expect, it } from 'vitest';
import { afterSignIn, HOME_PATH, loginPath, safeNextPath } from './next-path';

describe('the page a sign-in returns to', () => {
  it('keeps a path of the console with its query and fragment', () => {
    expect(safeNextPath('/vr-users/4f0c?tab=sessions')).toBe('/vr-users/4f0c?tab=sessions');
    expect(safeNextPath('/sessions?tab=history&from=2026-05-01#top')).toBe(
      '/sessions?tab=history&from=2026-05-01#top',
    );
    expect(safeNextPath('/admin/global-stats')).toBe('/admin/global-stats');
  });

  it.each([
    ['another host by a protocol-relative path', '//evil.example/vr-users'],
    ['another host behind a backslash', '/\\evil.example'],
    ['a backslash pair', '\\\\evil.example'],
    ['an absolute URL', 'https://evil.example/vr-users'],
    ['an absolute URL of this scheme only', 'http:evil.example'],
    ['script', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'vr-users'],
    ['a tab that parsers drop', '/\t/evil.example'],
    ['a new line that parsers drop', '/\n/evil.example'],
    ['the sign-in page itself', '/login?next=/vr-users'],
    ['nothing', ''],
    ['no parameter', null],
  ])('refuses %s', (_what, next) => {
    expect(safeNextPath(next)).toBeUndefined();
  });

  it('goes home from /login without next, or with one it refuses', () => {
    expect(afterSignIn('')).toBe(HOME_PATH);
    expect(afterSignIn('?next=%2F%2Fevil.example')).toBe(HOME_PATH);
    expect(afterSignIn('?next=https%3A%2F%2Fevil.example')).toBe(HOME_PATH);
    expect(afterSignIn('?next=%2Fdevices%3Fq%3Dquest')).toBe('/devices?q=quest');
  });

  it('names the page asked for in /login, except the home page', () => {
    expect(loginPath({ pathname: '/' })).toBe('/login');
    expect(loginPath({ pathname: HOME_PATH, search: '' })).toBe('/login');
    const path = loginPath({ pathname: '/vr-users/42', search: '?tab=a&b=c', hash: '#x' });
    expect(path).toBe('/login?next=%2Fvr-users%2F42%3Ftab%3Da%26b%3Dc%23x');
    expect(afterSignIn(path.slice('/login'.length))).toBe('/vr-users/42?tab=a&b=c#x');
    expect(loginPath({ pathname: '/vr-users', search: '?q=anna' })).toBe(
      '/login?next=%2Fvr-users%3Fq%3Danna',
    );
  });
});
