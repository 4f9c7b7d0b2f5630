/**
 * The signed-in layout and the loaders of every signed-in screen, in one module that the layout's
 * chunk holds (app/routes.tsx reaches the screens only through it). A screen is then always
 * loaded by code that has loaded the layout, and the bundler leaves out of the screen's chunk
 * what the layout's already brings (Mantine's components, TanStack Query, the shared list code),
 * instead of copying it into each (issue #27).
 */
export { AppLayout } from '../features/layout/AppLayout';

export const screens = {
  vrUsers: () => import('../features/vr-users/VrUsersPage'),
  trainee: () => import('../features/vr-users/TraineePage'),
  devices: () => import('../features/devices/DevicesPage'),
  sessions: () => import('../features/sessions/SessionsPage'),
  scenarios: () => import('../features/scenarios/ScenariosPage'),
  download: () => import('../features/download/DownloadPage'),
  audit: () => import('../features/audit/AuditLogPage'),
  integrations: () => import('../features/integrations/IntegrationsPage'),
  lmsPackages: () => import('../features/lms/LmsPackagesPage'),
  compliance: () => import('../features/qualifications/CompliancePage'),
  statistics: () => import('../features/admin-stats/OrganizationStatsPage'),
  qualifications: () => import('../features/qualifications/QualificationsPage'),
  organizations: () => import('../features/admin-organizations/OrganizationsPage'),
  users: () => import('../features/admin-users/UsersPage'),
  adminDevices: () => import('../features/admin-devices/AdminDevicesPage'),
  content: () => import('../features/admin-content/ContentPage'),
  scenarioAccess: () => import('../features/admin-access/ScenarioAccessPage'),
  globalStats: () => import('../features/admin-stats/GlobalStatsPage'),
  notFound: () => import('../features/layout/NotFoundPage'),
  enrolNow: () => import('../components/mfa/EnrolNow'),
};
