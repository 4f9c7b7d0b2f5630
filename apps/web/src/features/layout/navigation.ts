import {
  IconBuilding,
  IconChartBar,
  IconDeviceVisionPro,
  IconDownload,
  IconFolders,
  IconHistoryToggle,
  IconKey,
  IconListCheck,
  IconListDetails,
  IconPlayerPlay,
  IconPlugConnected,
  IconSchool,
  IconUserCog,
  IconUsers,
  IconDevices,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  path: string;
  labelKey: string;
  icon: Icon;
}

/** The training center (Client Features in the first specification): every signed-in user. */
export const clientNav: NavItem[] = [
  { path: '/vr-users', labelKey: 'layout:nav.vrUsers', icon: IconUsers },
  { path: '/devices', labelKey: 'layout:nav.devices', icon: IconDeviceVisionPro },
  { path: '/sessions', labelKey: 'layout:nav.sessions', icon: IconPlayerPlay },
  { path: '/scenarios', labelKey: 'layout:nav.scenarios', icon: IconListDetails },
  // Who is qualified, until when: staff and the auditor (issue 37).
  { path: '/compliance', labelKey: 'layout:nav.compliance', icon: IconListCheck },
  // The organisation's own figures: staff and the auditor (issue #42). The global screen's icon,
  // already in the layout's chunk: a new one would grow every signed-in first visit.
  { path: '/statistics', labelKey: 'layout:nav.statistics', icon: IconChartBar },
  { path: '/download', labelKey: 'layout:nav.download', icon: IconDownload },
  // Staff read their organisation's events; admins every organisation's.
  { path: '/audit', labelKey: 'layout:nav.audit', icon: IconHistoryToggle },
  // Where results and events go: staff their organisation's, admins any organisation's.
  { path: '/integrations', labelKey: 'layout:nav.integrations', icon: IconPlugConnected },
  // SCORM packages for the organisation's LMS and their keys (docs/lms.md).
  { path: '/lms-packages', labelKey: 'layout:nav.lms', icon: IconSchool },
];

/** Admin Features: admins only. */
export const adminNav: NavItem[] = [
  { path: '/admin/organizations', labelKey: 'layout:nav.organizations', icon: IconBuilding },
  { path: '/admin/users', labelKey: 'layout:nav.users', icon: IconUserCog },
  { path: '/admin/devices', labelKey: 'layout:nav.allDevices', icon: IconDevices },
  { path: '/admin/content', labelKey: 'layout:nav.content', icon: IconFolders },
  { path: '/admin/scenario-access', labelKey: 'layout:nav.scenarioAccess', icon: IconKey },
  { path: '/admin/global-stats', labelKey: 'layout:nav.globalStats', icon: IconChartBar },
];
