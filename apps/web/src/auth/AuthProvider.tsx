import type { LoginResponse, Me, MfaChallenge, MfaVerifyBody } from '@vrtc/contract';
import { routes } from '../api/routes';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { api, setUnauthorizedHandler } from '../api/client';
import { clearStoredUser, writeStoredUser } from './storage';

export type AuthState =
  | { status: 'loading'; user: undefined }
  | { status: 'signed-in'; user: Me }
  | { status: 'signed-out'; user: undefined };

interface AuthContextValue {
  state: AuthState;
  /** Signed in, or the second step's challenge of an account with a second factor. */
  login(email: string, password: string): Promise<Me | MfaChallenge>;
  /** The second step (decision 031): a code, a recovery code or a passkey's answer. */
  verify(body: MfaVerifyBody): Promise<Me>;
  /** Reads the account again (after an enrolment the policy asked for). */
  refresh(): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

const signedOut: AuthState = { status: 'signed-out', user: undefined };

let earlyCheck: Promise<Me | null> | undefined;

/**
 * The sign-in check: the account the browser's cookie signs in, or null when it signs in none.
 * GET /v1/auth/session answers a signed-out browser 200, so the sign-in page's visit costs no
 * refused request (GET /v1/me would answer 401) and the server records nothing of it.
 */
const checkSignIn = () =>
  api.call(routes.sessionProbe).then((answer) => (answer.signed_in ? answer.account : null));

/**
 * Sends the sign-in check before the first render (main.tsx): which page shows waits on its
 * answer, and evaluating and first rendering the console takes the main thread a while on a slow
 * machine. The provider then takes this request instead of sending its own.
 */
export function checkSignInEarly(): void {
  earlyCheck ??= checkSignIn();
  // Answered by the provider; a failure here is its to handle, not an unhandled rejection.
  earlyCheck.catch(() => undefined);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  // Nothing in storage says whether the browser is signed in: the httpOnly cookie does, and only
  // the server can read it. Until the sign-in check answers, a spinner (no page that may be
  // wrong).
  const [state, setState] = useState<AuthState>({ status: 'loading', user: undefined });

  const dropLogin = useCallback(() => {
    clearStoredUser();
    setState(signedOut);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(dropLogin);
    return () => setUnauthorizedHandler(undefined);
  }, [dropLogin]);

  // On start-up the sign-in cookie is checked against the profile; if that fails, signed out.
  useEffect(() => {
    let cancelled = false;
    const check = earlyCheck ?? checkSignIn();
    earlyCheck = undefined;
    check.then(
      (user) => {
        if (cancelled) return;
        if (!user) {
          dropLogin();
          return;
        }
        writeStoredUser(user);
        setState({ status: 'signed-in', user });
      },
      () => {
        if (!cancelled) dropLogin();
      },
    );
    return () => {
      cancelled = true;
    };
  }, [dropLogin]);

  const signedIn = useCallback((response: LoginResponse) => {
    const user: Me = {
      id: response.id,
      email: response.email,
      role: response.role,
      organization_id: response.organization_id,
      organization_name: response.organization_name,
      ...(response.mfa_enrolment_required ? { mfa_enrolment_required: true } : {}),
    };
    // A page's sign-in answer holds no token (the server sees its Origin): the browser keeps the
    // cookie the answer set, which no script can read.
    writeStoredUser(user);
    setState({ status: 'signed-in', user });
    return user;
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      const response = await api.call(routes.login, { body: { email, password } });
      return 'mfa_required' in response ? response : signedIn(response);
    },
    [signedIn],
  );

  const verify = useCallback(
    async (body: MfaVerifyBody) => signedIn(await api.call(routes.verifyMfa, { body })),
    [signedIn],
  );

  const refresh = useCallback(async () => {
    const user = await api.call(routes.me);
    writeStoredUser(user);
    setState({ status: 'signed-in', user });
  }, []);

  const logout = useCallback(async () => {
    let providerSignOut: string | undefined;
    try {
      // Ends the sign-in and clears its cookie, which script cannot.
      providerSignOut = (await api.call(routes.logout)).provider_logout_url;
    } catch {
      // Signing out locally matters more than telling the server.
    }
    dropLogin();
    // A session of OIDC single sign-on signs out at the provider too (it comes back to /login).
    if (providerSignOut?.startsWith('/v1/auth/sso/')) window.location.assign(providerSignOut);
  }, [dropLogin]);

  const value = useMemo(
    () => ({ state, login, verify, refresh, logout }),
    [state, login, verify, refresh, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** The signed-in user; only for screens behind RequireAuth. */
export function useCurrentUser(): Me {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useCurrentUser needs a signed-in user');
  return state.user;
}
