import { type SessionDetail } from '@vrtc/contract';
import { routes } from './routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useLiveQueryOptions } from './live-events';
import { sessionKeys } from './session-keys';

/**
 * One session, any status, with the tasks its headset told of (GET /v1/sessions/:id). A running
 * one follows the live stream task by task (and polls while the stream is down).
 */
export function useSessionDetail(id: string | undefined) {
  const live = useLiveQueryOptions(['sessionChange', 'sessionProgress'], { sessionId: id });
  return useQuery({
    queryKey: sessionKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.call(routes.getSession, { params: { id: id! }, signal }),
    enabled: Boolean(id),
    ...live,
    refetchInterval: (query: { state: { data?: SessionDetail } }) =>
      query.state.data?.status === 'active' ? live.refetchInterval : false,
  });
}
