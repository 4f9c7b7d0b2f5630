import type {
  DeliveryError,
  DeliveryStatus,
  IntegrationDisabledReason,
  IntegrationEvent,
} from '@vrtc/contract';
import type { TFunction } from 'i18next';

/** An event in words ("Session finished"); its code stays beside it where there is room. */
export const eventLabel = (t: TFunction, event: IntegrationEvent) =>
  t(`integrations:event.${event.replace('.', '_')}`);

export const reasonLabel = (t: TFunction, reason: IntegrationDisabledReason | null) =>
  t(`integrations:reason.${reason ?? 'by_user'}`);

export const deliveryErrorLabel = (t: TFunction, error: DeliveryError) =>
  t(`integrations:error.${error}`);

export const deliveryStatusLabel = (t: TFunction, status: DeliveryStatus) =>
  t(`integrations:deliveryStatus.${status}`);

export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
  abandoned: 'gray',
};
