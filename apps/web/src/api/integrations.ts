import type {
  DeliveryListQuery,
  IntegrationCreateBody,
  IntegrationUpdateBody,
} from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { routes } from './routes';

/**
 * Results out (docs/integrations.md): an organisation's integrations (webhooks and learning record
 * stores), their signing secrets, a test send, and each integration's delivery log.
 */
export const integrationKeys = {
  all: ['integrations'] as const,
  list: (organizationId: string | undefined) =>
    ['integrations', 'list', organizationId ?? 'own'] as const,
  deliveries: (id: string, query: DeliveryListQuery) =>
    ['integrations', 'deliveries', id, query] as const,
};

/** The integrations of an organisation: staff their own, an admin the one named (else their own). */
export function useIntegrations(organizationId: string | undefined) {
  return useQuery({
    queryKey: integrationKeys.list(organizationId),
    queryFn: ({ signal }) =>
      api.call(routes.listIntegrations, {
        query: organizationId ? { organization_id: organizationId } : {},
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** After a change, every list and delivery log is asked anew. */
const useIntegrationMutation = <Variables, Answer>(
  mutationFn: (variables: Variables) => Promise<Answer>,
) => useRefreshingMutation(integrationKeys.all, mutationFn);

/** Creates one; a webhook's answer carries its signing secret, the only time it is shown. */
export function useCreateIntegration() {
  return useIntegrationMutation((body: IntegrationCreateBody) =>
    api.call(routes.createIntegration, { body }),
  );
}

/** Changes the given fields; `enabled` turns it on (clearing why it was off) or off. */
export function useUpdateIntegration() {
  return useIntegrationMutation(({ id, body }: { id: string; body: IntegrationUpdateBody }) =>
    api.call(routes.updateIntegration, { params: { id }, body }),
  );
}

export function useDeleteIntegration() {
  return useIntegrationMutation((id: string) =>
    api.call(routes.deleteIntegration, { params: { id } }),
  );
}

/** A new signing secret, answered once; the old one still signs for 24 hours. */
export function useRotateIntegrationSecret() {
  return useIntegrationMutation((id: string) =>
    api.call(routes.rotateIntegrationSecret, { params: { id } }),
  );
}

/** Sends a test event now and answers what the receiver said (not a delivery: nothing cached). */
export function useTestIntegration() {
  return useMutation({
    mutationFn: (id: string) => api.call(routes.testIntegration, { params: { id } }),
  });
}

/** One page of an integration's delivery log, newest first; the page before stays while loading. */
export function useDeliveries(id: string | undefined, query: DeliveryListQuery) {
  return useQuery({
    queryKey: integrationKeys.deliveries(id ?? '', query),
    queryFn: ({ signal }) =>
      api.call(routes.listDeliveries, { params: { id: id ?? '' }, query, signal }),
    enabled: Boolean(id),
    placeholderData: keepPreviousData,
  });
}

/** Sends one event again: the delivery becomes pending, its attempts kept. */
export function useRedeliver() {
  return useIntegrationMutation(({ id, deliveryId }: { id: string; deliveryId: string }) =>
    api.call(routes.redeliver, { params: { id, deliveryId } }),
  );
}
