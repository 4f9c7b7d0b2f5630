import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from './AuthProvider';

export const HOME_PATH = '/vr-users';

export function FullPageSpinner() {
  // `common` is bundled and in the store before the first render: never suspend a fallback.
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <Center h="100vh" data-testid="auth-spinner">
      <Loader aria-label={t('loading')} />
    </Center>
  );
}

/** Every page but /login: a spinner while auth resolves, /login when signed out. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-out') {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return children;
}

/** /login sends a signed-in user to the home page. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-in') return <Navigate to={HOME_PATH} replace />;
  return children;
}

/** Admin routes: a non-admin is sent to the home page. */
export function RequireAdmin() {
  const { state } = useAuth();
  if (state.status !== 'signed-in' || state.user.role !== 'admin') {
    return <Navigate to={HOME_PATH} replace />;
  }
  return <Outlet />;
}
