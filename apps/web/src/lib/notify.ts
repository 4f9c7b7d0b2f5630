import { notifications } from '@mantine/notifications';

/** Toasts close by themselves after 5 s (the specification's auto-close). */
export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * A toast shown in a slot replaces the slot's previous one, so a form that keeps saying what is
 * wrong shows one message at a time, never a stack of them; `dismissToast(slot)` takes it away
 * once its cause is gone. A new toast gets a new id (rather than reusing the slot's), so its
 * auto-close starts again.
 */
const slots = new Map<string, string>();

interface ToastOptions {
  slot?: string;
}

function show(color: string, message: string, { slot }: ToastOptions = {}): void {
  if (slot) dismissToast(slot);
  const id = notifications.show({
    color,
    message,
    autoClose: TOAST_AUTO_CLOSE_MS,
    onClose: slot ? () => void (slots.get(slot) === id && slots.delete(slot)) : undefined,
  });
  if (slot) slots.set(slot, id);
}

export function notifySuccess(message: string, options?: ToastOptions): void {
  show('green', message, options);
}

export function notifyError(message: string, options?: ToastOptions): void {
  show('red', message, options);
}

export function notifyWarning(message: string, options?: ToastOptions): void {
  show('yellow', message, options);
}

/** Hides the toast shown in `slot`, if one still is. */
export function dismissToast(slot: string): void {
  const id = slots.get(slot);
  if (id === undefined) return;
  slots.delete(slot);
  notifications.hide(id);
}
