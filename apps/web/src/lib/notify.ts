import { notifications } from '@mantine/notifications';

/** Toasts close by themselves after 5 s (the specification's auto-close). */
export const TOAST_AUTO_CLOSE_MS = 5000;

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: TOAST_AUTO_CLOSE_MS });
}

export function notifyError(message: string): void {
  notifications.show({ color: 'red', message, autoClose: TOAST_AUTO_CLOSE_MS });
}

export function notifyWarning(message: string): void {
  notifications.show({ color: 'yellow', message, autoClose: TOAST_AUTO_CLOSE_MS });
}
