import { Tabs } from '@mantine/core';
import { IconHistory, IconPlayerPlay, IconActivity } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useParamWriter, useUrlParam } from '../../lib/list-state';
import { ActiveSessions } from './ActiveSessions';
import { SessionHistory } from './SessionHistory';
import { StartSessionWizard } from './StartSessionWizard';
import { useUrlWizard } from './start-wizard/useUrlWizard';

export const SESSION_TABS = ['start', 'active', 'history'] as const;
export type SessionTab = (typeof SESSION_TABS)[number];

const isSessionTab = (value: string | null): value is SessionTab =>
  SESSION_TABS.includes(value as SessionTab);

/**
 * Start, Active and History tabs; the chosen tab lives in the URL (?tab=, none for Start) as every
 * screen's settings do: a reload, back and a shared link open the same tab.
 */
export function SessionsPage() {
  const { t } = useTranslation();
  const [tab, openTab] = useUrlParam('tab', isSessionTab, 'start');
  // On a phone the three tabs fit on one line without their icons.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  // Held here so the choices survive a look at another tab; its step is in the URL (?step=).
  const [wizard, dispatch] = useUrlWizard();
  const { write } = useParamWriter();

  return (
    <>
      <PageHeader title={t('sessions:title')} subtitle={t('sessions:subtitle')} />
      <Tabs
        value={tab}
        onChange={(value) => openTab(isSessionTab(value) ? value : 'start')}
        keepMounted={false}
        variant="outline"
        radius="md"
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="start" leftSection={narrow ? undefined : <IconPlayerPlay size={16} />}>
            {t('sessions:tabs.start')}
          </Tabs.Tab>
          <Tabs.Tab value="active" leftSection={narrow ? undefined : <IconActivity size={16} />}>
            {t('sessions:tabs.active')}
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={narrow ? undefined : <IconHistory size={16} />}>
            {t('sessions:tabs.history')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="start">
          <StartSessionWizard
            state={wizard}
            dispatch={dispatch}
            // One write: the started wizard's step leaves the URL as the Active tab opens.
            onStarted={() => write({ tab: 'active', step: null })}
          />
        </Tabs.Panel>
        <Tabs.Panel value="active">
          <ActiveSessions onStartNew={() => openTab('start')} />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <SessionHistory />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
