import { IconFolders, IconLayersSubtract, IconListCheck, IconStairs } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ContentKind } from '../../api/content';

/** The content screen's tabs, one list each: the tab's name in the URL and the kind it lists. */
export type Tab = 'scenarios' | 'modules' | 'levels' | 'options';

export const TABS: { tab: Tab; kind: ContentKind; icon: ReactNode }[] = [
  { tab: 'scenarios', kind: 'scenario', icon: <IconFolders size={16} /> },
  { tab: 'modules', kind: 'module', icon: <IconLayersSubtract size={16} /> },
  { tab: 'levels', kind: 'level', icon: <IconStairs size={16} /> },
  { tab: 'options', kind: 'option', icon: <IconListCheck size={16} /> },
];

export const kindOf = (tab: Tab) => TABS.find((entry) => entry.tab === tab)!.kind;

export const parseTab = (value: string | null): Tab =>
  TABS.find((entry) => entry.tab === value)?.tab ?? 'scenarios';
