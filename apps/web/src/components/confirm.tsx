import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18n from '../i18n';

/** What a confirmation dialog asks. */
export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  /** The dismiss button's text; 'Cancel' unless that would be ambiguous (e.g. cancelling a session). */
  cancelLabel?: string;
  danger?: boolean;
}

/** A confirmation dialog; resolves true when confirmed. Focus starts on Cancel (safe default). */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: options.title,
      children: <Text size="sm">{options.message}</Text>,
      labels: {
        confirm: options.confirmLabel,
        cancel: options.cancelLabel ?? i18n.t('common:cancel'),
      },
      confirmProps: { color: options.danger ? 'red' : undefined, 'data-autofocus': false },
      cancelProps: { 'data-autofocus': true },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
