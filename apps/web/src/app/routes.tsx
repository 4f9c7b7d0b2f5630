import { lazy, Suspense, type ComponentType } from 'react';
import i18n from '../i18n';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageSpinner, HOME_PATH, PublicOnly, RequireAdmin, RequireAuth } from '../auth/guards';

/**
 * A screen loaded on first visit: its code and its dictionary (i18n namespace) in parallel, so the
 * login page carries neither.
 */
function screen<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  namespace?: string,
) {
  return lazy(async () => {
    const [module] = await Promise.all([
      load(),
      namespace ? i18n.loadNamespaces(namespace) : undefined,
    ]);
    return { default: module[name] };
  });
}

const LoginPage = screen(() => import('../features/auth/LoginPage'), 'LoginPage');
const AppLayout = screen(() => import('../features/layout/AppLayout'), 'AppLayout');
const VrUsersPage = screen(
  () => import('../features/vr-users/VrUsersPage'),
  'VrUsersPage',
  'vrUsers',
);
const TraineePage = screen(
  () => import('../features/vr-users/TraineePage'),
  'TraineePage',
  'vrUsers',
);
const DevicesPage = screen(
  () => import('../features/devices/DevicesPage'),
  'DevicesPage',
  'devices',
);
const SessionsPage = screen(
  () => import('../features/sessions/SessionsPage'),
  'SessionsPage',
  'sessions',
);
const ScenariosPage = screen(
  () => import('../features/scenarios/ScenariosPage'),
  'ScenariosPage',
  'scenarios',
);
const DownloadPage = screen(
  () => import('../features/download/DownloadPage'),
  'DownloadPage',
  'download',
);
const AuditLogPage = screen(
  () => import('../features/audit/AuditLogPage'),
  'AuditLogPage',
  'audit',
);
const IntegrationsPage = screen(
  () => import('../features/integrations/IntegrationsPage'),
  'IntegrationsPage',
  'integrations',
);
const OrganizationsPage = screen(
  () => import('../features/admin-organizations/OrganizationsPage'),
  'OrganizationsPage',
  'adminOrganizations',
);
const UsersPage = screen(
  () => import('../features/admin-users/UsersPage'),
  'UsersPage',
  'adminUsers',
);
const AdminDevicesPage = screen(
  () => import('../features/admin-devices/AdminDevicesPage'),
  'AdminDevicesPage',
  'adminDevices',
);
const ContentPage = screen(
  () => import('../features/admin-content/ContentPage'),
  'ContentPage',
  'adminContent',
);
const ScenarioAccessPage = screen(
  () => import('../features/admin-access/ScenarioAccessPage'),
  'ScenarioAccessPage',
  'adminAccess',
);
const GlobalStatsPage = screen(
  () => import('../features/admin-stats/GlobalStatsPage'),
  'GlobalStatsPage',
  'adminStats',
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
          <Route path="vr-users/:id" element={<TraineePage />} />
          <Route path="devices" element={<DevicesPage />} />
          <Route path="sessions" element={<SessionsPage />} />
          <Route path="scenarios" element={<ScenariosPage />} />
          <Route path="download" element={<DownloadPage />} />
          <Route path="audit" element={<AuditLogPage />} />
          <Route path="integrations" element={<IntegrationsPage />} />
          <Route path="admin" element={<RequireAdmin />}>
            <Route path="organizations" element={<OrganizationsPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="devices" element={<AdminDevicesPage />} />
            <Route path="content" element={<ContentPage />} />
            <Route path="scenario-access" element={<ScenarioAccessPage />} />
            <Route path="global-stats" element={<GlobalStatsPage />} />
          </Route>
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
