import { createElement, lazy, Suspense, type ComponentType } from 'react';
import i18n from '../i18n';
import { screenRetryGeneration } from '../lib/screen-retry';
import type { LoginPageProps } from '../features/auth/LoginPage';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageSpinner, HOME_PATH, PublicOnly, RequireAdmin, RequireAuth } from '../auth/guards';
import type { NotFoundPageProps } from '../features/layout/NotFoundPage';

/**
 * The layout and, through it, every signed-in screen (app/screens.ts): a screen's chunk then
 * leaves out what the layout's already holds.
 */
const signedIn = () => import('./screens');
// Loaded only for an account the policy sends to enrol a second factor; through the layout's chunk
// like every signed-in screen, or the bundler splits what the two share (TanStack Query, Mantine's
// Text and Group) into a chunk of its own: one more request on every signed-in first visit.
const EnrolNow = lazy(() =>
  signedIn()
    .then((module) => module.screens.enrolNow())
    .then((module) => ({ default: module.EnrolNow })),
);

/**
 * A screen's dictionary in the language shown. i18next never asks again for a dictionary whose
 * download failed (the server gone), and resolves all the same: a failure is found here, the
 * dictionary asked for again, and the screen's load failed if it is still missing.
 */
async function loadDictionary(namespace: string) {
  const language = i18n.language;
  if (i18n.hasResourceBundle(language, namespace)) return;
  await i18n.loadNamespaces(namespace);
  if (i18n.hasResourceBundle(language, namespace)) return;
  await i18n.reloadResources([language], [namespace]);
  if (!i18n.hasResourceBundle(language, namespace))
    throw new Error(`The "${namespace}" dictionary could not be downloaded`);
}

/** A screen loaded on first visit, which can also be asked for ahead of it (`preload`). */
type Screen<P extends object = object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A screen loaded on first visit: its code and its dictionary (i18n namespace) in parallel, so the
 * login page carries neither. `preload()` starts both at once (the same promise the first render
 * then waits for).
 */
function screen<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  namespace?: string | string[],
): Screen<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  /** The retry generation a download failed in; undefined while none has. */
  let failedIn: number | undefined;
  const preload = () =>
    (loading ??= Promise.all([load(), ...[namespace ?? []].flat().map(loadDictionary)]).then(
      ([module]) => ({ default: module[name] }),
      (error: unknown) => {
        // A failed download is tried again on the next visit, not remembered.
        loading = undefined;
        failedIn = screenRetryGeneration();
        throw error;
      },
    ));
  // React remembers a lazy component's failure for good: once the layout's ScreenLoadBoundary
  // asks for another try, the next render gets a new one, which downloads again.
  let Lazy = lazy(preload);
  function LoadedScreen(props: P) {
    if (failedIn !== undefined && failedIn !== screenRetryGeneration()) {
      failedIn = undefined;
      Lazy = lazy(preload);
    }
    return createElement(Lazy as ComponentType<P>, props);
  }
  return Object.assign(LoadedScreen, { preload });
}

const LoginPage = screen<'LoginPage', LoginPageProps>(
  () => import('../features/auth/LoginPage'),
  'LoginPage',
  'auth',
);
const AppLayout = screen(signedIn, 'AppLayout');
/** An unknown address, or an admin's page for staff: a chunk of its own, loaded when asked for. */
const NotFoundPage = screen<'NotFoundPage', NotFoundPageProps>(
  () => signedIn().then((module) => module.screens.notFound()),
  'NotFoundPage',
);
const VrUsersPage = screen(
  () => signedIn().then((module) => module.screens.vrUsers()),
  'VrUsersPage',
  'vrUsers',
);
const TraineePage = screen(
  () => signedIn().then((module) => module.screens.trainee()),
  'TraineePage',
  'vrUsers',
);
const DevicesPage = screen(
  () => signedIn().then((module) => module.screens.devices()),
  'DevicesPage',
  'devices',
);
const SessionsPage = screen(
  () => signedIn().then((module) => module.screens.sessions()),
  'SessionsPage',
  'sessions',
);
const ScenariosPage = screen(
  () => signedIn().then((module) => module.screens.scenarios()),
  'ScenariosPage',
  // Its levels' "Export for LMS" dialog speaks from the lms dictionary.
  ['scenarios', 'lms'],
);
const DownloadPage = screen(
  () => signedIn().then((module) => module.screens.download()),
  'DownloadPage',
  'download',
);
const AuditLogPage = screen(
  () => signedIn().then((module) => module.screens.audit()),
  'AuditLogPage',
  'audit',
);
const IntegrationsPage = screen(
  () => signedIn().then((module) => module.screens.integrations()),
  'IntegrationsPage',
  'integrations',
);
const LmsPackagesPage = screen(
  () => signedIn().then((module) => module.screens.lmsPackages()),
  'LmsPackagesPage',
  'lms',
);
const CompliancePage = screen(
  () => signedIn().then((module) => module.screens.compliance()),
  'CompliancePage',
  'qualifications',
);
/** The organisation's own statistics: its words, and the statistics' panels' (adminStats). */
const OrganizationStatsPage = screen(
  () => signedIn().then((module) => module.screens.statistics()),
  'OrganizationStatsPage',
  ['orgStats', 'adminStats'],
);
const QualificationsPage = screen(
  () => signedIn().then((module) => module.screens.qualifications()),
  'QualificationsPage',
  // Its qualifications' "Export for LMS" dialog speaks from the lms dictionary.
  ['qualifications', 'lms'],
);
/**
 * A certificate's public pages (the QR's verify page, the printable sheet): no sign-in, and none
 * of the signed-in layout loaded with them (a site supervisor opens them on a phone).
 */
const VerifyPage = screen(
  () => import('../features/qualifications/VerifyPage'),
  'VerifyPage',
  'verify',
);
const CertificatePage = screen(
  () => import('../features/qualifications/CertificatePage'),
  'CertificatePage',
  'verify',
);
const OrganizationsPage = screen(
  () => signedIn().then((module) => module.screens.organizations()),
  'OrganizationsPage',
  'adminOrganizations',
);
const UsersPage = screen(
  () => signedIn().then((module) => module.screens.users()),
  'UsersPage',
  'adminUsers',
);
const AdminDevicesPage = screen(
  () => signedIn().then((module) => module.screens.adminDevices()),
  'AdminDevicesPage',
  'adminDevices',
);
const ContentPage = screen(
  () => signedIn().then((module) => module.screens.content()),
  'ContentPage',
  'adminContent',
);
const ScenarioAccessPage = screen(
  () => signedIn().then((module) => module.screens.scenarioAccess()),
  'ScenarioAccessPage',
  'adminAccess',
);
const GlobalStatsPage = screen(
  () => signedIn().then((module) => module.screens.globalStats()),
  'GlobalStatsPage',
  'adminStats',
);

/** The screen at each signed-in path (the part after the first slash, admin screens by two). */
const SCREENS: Record<string, Screen> = {
  'vr-users': VrUsersPage,
  devices: DevicesPage,
  sessions: SessionsPage,
  scenarios: ScenariosPage,
  download: DownloadPage,
  audit: AuditLogPage,
  integrations: IntegrationsPage,
  'lms-packages': LmsPackagesPage,
  compliance: CompliancePage,
  'compliance/qualifications': QualificationsPage,
  statistics: OrganizationStatsPage,
  'admin/organizations': OrganizationsPage,
  'admin/users': UsersPage,
  'admin/devices': AdminDevicesPage,
  'admin/content': ContentPage,
  'admin/scenario-access': ScenarioAccessPage,
  'admin/global-stats': GlobalStatsPage,
};

/**
 * Starts loading the layout and the screen a sign-in goes to (`path`) while the sign-in is
 * checked: the first rows then wait for the list's answer alone, not for code fetched after it.
 */
export function preloadSignedIn(path: string) {
  const [first = HOME_PATH.slice(1), second = ''] = new URL(path, window.location.origin).pathname
    .split('/')
    .filter(Boolean);
  const target =
    first === 'vr-users' && second
      ? TraineePage
      : (SCREENS[`${first}/${second}`] ?? SCREENS[first]);
  void AppLayout.preload().catch(() => undefined);
  void target?.preload().catch(() => undefined);
}

export function AppRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route
          path="/login"
          element={
            <PublicOnly>
              <LoginPage onSignIn={preloadSignedIn} />
            </PublicOnly>
          }
        />
        <Route path="/verify/:code" element={<VerifyPage />} />
        <Route path="/certificates/:code" element={<CertificatePage />} />
        <Route
          path="/"
          element={
            <RequireAuth enrolNow={<EnrolNow />}>
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
          <Route path="lms-packages" element={<LmsPackagesPage />} />
          <Route path="compliance" element={<CompliancePage />} />
          <Route path="compliance/qualifications" element={<QualificationsPage />} />
          <Route path="statistics" element={<OrganizationStatsPage />} />
          <Route
            path="admin"
            element={<RequireAdmin notAllowed={<NotFoundPage reason="not-allowed" />} />}
          >
            <Route path="organizations" element={<OrganizationsPage />} />
            <Route path="organizations/:id" element={<OrganizationsPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="devices" element={<AdminDevicesPage />} />
            <Route path="content" element={<ContentPage />} />
            <Route path="scenario-access" element={<ScenarioAccessPage />} />
            <Route path="global-stats" element={<GlobalStatsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
