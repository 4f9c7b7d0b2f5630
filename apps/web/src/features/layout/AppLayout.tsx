import {
  ActionIcon,
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  MantineThemeProvider,
  NavLink,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import {
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLogout,
} from '@tabler/icons-react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useLanguageMemo } from '../../lib/use-language-memo';
import { LiveEventsProvider } from '../../api/live-events';
import { useSignedInQueryClient } from '../../api/query-client';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth, useCurrentUser } from '../../auth/AuthProvider';
import { confirmAction, ConfirmHost } from '../../components/confirm';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { LiveIndicator } from '../../components/LiveIndicator';
import { Toasts } from '../../components/Toasts';
import { FullPageSpinner } from '../../auth/guards';
import { adminNav, clientNav, type NavItem } from './navigation';
import { UserMenu } from './UserMenu';
import { ConnectionBanner } from './ConnectionBanner';
import { ScreenLoadBoundary } from './ScreenLoadBoundary';
import { Tooltip } from '../../components/Tooltip';

function NavGroup({
  title,
  items,
  collapsed,
  onNavigate,
}: {
  title: string;
  items: NavItem[];
  collapsed: boolean;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} component="nav" aria-label={title}>
      {collapsed ? null : (
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
          {title}
        </Text>
      )}
      {items.map((item) => {
        const label = t(item.labelKey);
        const link = (
          <NavLink
            key={item.path}
            component={RouterNavLink}
            to={item.path}
            label={collapsed ? undefined : label}
            aria-label={collapsed ? label : undefined}
            leftSection={<item.icon size={18} stroke={1.6} />}
            onClick={onNavigate}
            style={{ borderRadius: 8 }}
          />
        );
        return collapsed ? (
          <Tooltip key={item.path} label={label} position="right">
            {link}
          </Tooltip>
        ) : (
          link
        );
      })}
    </Stack>
  );
}

/**
 * Defaults for every dialog and toast of the signed-in app (feature modals and confirmations
 * alike): the close (×) button gets a translated accessible name. It is not "Close", so that it never clashes
 * with a dialog's own Close button.
 */
function useDialogTheme() {
  const { t } = useTranslation();
  return useLanguageMemo(t, () => ({
    components: {
      // Plain objects rather than `Modal.extend(…)`: naming the components would load the
      // dialogs' and toasts' code with every page (issue #27).
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': t('common:closeDialog') } } },
      // A toast's × had no name at all (axe: button-name) while the toast was on screen.
      Notification: {
        defaultProps: { closeButtonProps: { 'aria-label': t('common:closeNotification') } },
      },
    },
  }));
}

/** The signed-in app: its own query cache (gone on sign-out), dialogs, toasts and the shell. */
export function AppLayout() {
  const queryClient = useSignedInQueryClient(useCurrentUser().id);
  const dialogTheme = useDialogTheme();
  return (
    <MantineThemeProvider theme={dialogTheme}>
      <QueryClientProvider client={queryClient}>
        <ConfirmHost />
        {/* Bottom right: at the top they covered the organisation's name, the live badge and the
            page's main button, which sit top right on every screen. */}
        <Toasts position="bottom-right" />
        <LiveShell />
      </QueryClientProvider>
    </MantineThemeProvider>
  );
}

/** The tab's one live stream (see api/live-events.tsx), for every screen of the shell. */
function LiveShell() {
  const user = useCurrentUser();
  return (
    <LiveEventsProvider organizationId={user.organization_id}>
      <Shell />
    </LiveEventsProvider>
  );
}

function Shell() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [mobileOpen, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [collapsed, setCollapsed] = useLocalStorage({
    key: 'sidebar_collapsed',
    defaultValue: false,
  });

  async function askLogout() {
    const confirmed = await confirmAction({
      title: t('layout:logout'),
      message: t('layout:logoutConfirm'),
      confirmLabel: t('layout:logout'),
    });
    if (!confirmed) return;
    await logout();
    navigate('/login', { replace: true });
  }

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: collapsed ? 72 : 264, breakpoint: 'sm', collapsed: { mobile: !mobileOpen } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* Takes the room the right-hand controls leave; on a phone the title gives way. */}
          <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 0', minWidth: 0 }}>
            <Burger
              opened={mobileOpen}
              onClick={toggleMobile}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('layout:menu')}
            />
            <Tooltip label={collapsed ? t('layout:expand') : t('layout:collapse')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                visibleFrom="sm"
                onClick={() => setCollapsed(!collapsed)}
                aria-label={collapsed ? t('layout:expand') : t('layout:collapse')}
              >
                {collapsed ? <IconLayoutSidebarLeftExpand /> : <IconLayoutSidebarLeftCollapse />}
              </ActionIcon>
            </Tooltip>
            <Title
              order={4}
              style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {t('common:appName')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed" visibleFrom="md" truncate>
              {user.organization_name}
            </Text>
            <LiveIndicator />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs">
        {/* Scrolls natively, with a thin bar: Mantine's ScrollArea would bring floating-ui with
            every page (issue #27). */}
        <AppShell.Section grow style={{ overflowY: 'auto', scrollbarWidth: 'thin' }}>
          <NavGroup
            title={t('layout:clientFeatures')}
            items={clientNav}
            collapsed={collapsed}
            onNavigate={closeMobile}
          />
          {user.role === 'admin' ? (
            <NavGroup
              title={t('layout:adminFeatures')}
              items={adminNav}
              collapsed={collapsed}
              onNavigate={closeMobile}
            />
          ) : null}
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          {collapsed ? (
            <Stack align="center" gap="xs">
              <Tooltip label={t('layout:logout')} position="right">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={askLogout}
                  aria-label={t('layout:logout')}
                >
                  <IconLogout size={18} />
                </ActionIcon>
              </Tooltip>
            </Stack>
          ) : (
            <Stack gap={6} px="xs">
              <LanguageSwitcher />
              <Text size="sm" fw={600} truncate data-testid="user-email">
                {user.email}
              </Text>
              <Group gap={6}>
                {/* The role in capitals (the badge's own text transform), in the console's language. */}
                <Badge size="sm" variant="light" tt="uppercase" data-testid="user-role">
                  {t(`common:role.${user.role}`)}
                </Badge>
                <Text size="xs" c="dimmed" truncate data-testid="user-organization">
                  {user.organization_name}
                </Text>
              </Group>
              <Button
                variant="light"
                color="red"
                size="xs"
                leftSection={<IconLogout size={16} />}
                onClick={askLogout}
              >
                {t('layout:logout')}
              </Button>
            </Stack>
          )}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <ConnectionBanner />
        {/* A new address starts afresh: a screen that failed to load is tried again. */}
        <ScreenLoadBoundary key={location.pathname}>
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </ScreenLoadBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
