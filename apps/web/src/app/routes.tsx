import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageSpinner, HOME_PATH, PublicOnly, RequireAdmin, RequireAuth } from '../auth/guards';

// Every screen is its own chunk: the login page loads only what it needs.
const LoginPage = lazy(() => import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const AppLayout = lazy(() => import('../features/layout/AppLayout').then((m) => ({ default: m.AppLayout })));
const VrUsersPage = lazy(() =>
  import('../features/vr-users/VrUsersPage').then((m) => ({ default: m.VrUsersPage })),
);

export function AppRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route
          path="/login"
          element={
            <PublicOnly>
              <LoginPage />
            </PublicOnly>
          }
        />
        <Route
          path="/"
          element={
            <RequireAuth>
              <AppLayout />
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to={HOME_PATH} replace />} />
          <Route path="vr-users" element={<VrUsersPage />} />
          <Route path="admin" element={<RequireAdmin />}></Route>
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
