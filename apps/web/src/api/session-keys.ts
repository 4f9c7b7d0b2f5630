import type { SessionListQuery } from '@vrtc/contract';

/**
 * The query keys of sessions, as more than one screen reads them: the sessions screen (Active,
 * History), a session's detail (History, VR users), and the live stream that patches them.
 */
export const sessionKeys = {
  all: ['sessions'] as const,
  active: ['sessions', 'active'] as const,
  history: (query: SessionListQuery) => ['sessions', 'history', query] as const,
  details: ['sessions', 'detail'] as const,
  detail: (id: string) => ['sessions', 'detail', id] as const,
};
