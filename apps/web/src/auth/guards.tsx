import { Center, Loader } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from './AuthProvider';
import { afterSignIn, HOME_PATH, loginPath } from './next-path';

export { HOME_PATH };

export function FullPageSpinner() {
  // `common` is bundled and in the store before the first render: never suspend a fallback.
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <Center h="100vh" data-testid="auth-spinner">
      <Loader aria-label={t('loading')} />
    </Center>
  );
}

/**
 * Every page but /login: a spinner while auth resolves, /login when signed out, naming the page
 * asked for (`?next=`) so the sign-in returns to it; `enrolNow` for an account the policy sends to
 * enrol a second factor first (the app's shell hands in that page, loaded only then).
 */
export function RequireAuth({ children, enrolNow }: { children: ReactNode; enrolNow: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-out') {
    return <Navigate to={loginPath(location)} replace />;
  }
  if (state.user.mfa_enrolment_required) {
    return <Suspense fallback={<FullPageSpinner />}>{enrolNow}</Suspense>;
  }
  return children;
}

/** /login sends a signed-in user to the page it names (`?next=`, a path of the console) or home. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-in') return <Navigate to={afterSignIn(location.search)} replace />;
  return children;
}

/** Admin routes: anyone else is told the page is not for their account (`notAllowed`). */
export function RequireAdmin({ notAllowed }: { notAllowed: ReactNode }) {
  const { state } = useAuth();
  if (state.status !== 'signed-in' || state.user.role !== 'admin') return notAllowed;
  return <Outlet />;
}
