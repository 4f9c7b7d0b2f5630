import {
  FAILING_DISABLE_AFTER_DAYS,
  type DeliveryError,
  type DeliveryStatus,
  type IntegrationDisabledReason,
  type IntegrationEvent,
} from '@vrtc/contract';
import type { TFunction } from 'i18next';

/** An event in words ("Session finished"); its code stays beside it where there is room. */
export const eventLabel = (t: TFunction, event: IntegrationEvent) =>
  t(`integrations:event.${event.replace('.', '_')}`);

/** Why an integration is off; a failing one names how long it failed (the contract's days). */
export const reasonLabel = (t: TFunction, reason: IntegrationDisabledReason | null) =>
  reason === 'failing'
    ? t('integrations:reason.failing', { count: FAILING_DISABLE_AFTER_DAYS })
    : t(`integrations:reason.${reason ?? 'by_user'}`);

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
