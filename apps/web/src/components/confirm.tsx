import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { lazy, Suspense, useEffect, useState } from 'react';
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
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
  await confirmHostReady();
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

// Mantine's ModalsProvider (its dialog, focus trap and scroll lock) loads with the first
// confirmation, not with the page (issue #27). The mounted ConfirmHost says how to ask for it;
// without one (a component under test, inside its own ModalsProvider) a confirmation opens at once.
const ModalsProvider = lazy(() =>
  import('./modals-impl').then((module) => ({ default: module.ModalsProvider })),
);
let askForHost: (() => void) | undefined;
let hostReady = false;
const waiting: Array<() => void> = [];

function confirmHostReady(): Promise<void> {
  if (!askForHost || hostReady) return Promise.resolve();
  const asked = new Promise<void>((resolve) => waiting.push(resolve));
  askForHost();
  return asked;
}

function onHostReady() {
  hostReady = true;
  for (const resolve of waiting.splice(0)) resolve();
}

/** Where confirmations open: Mantine's ModalsProvider, loaded and mounted with the first one. */
export function ConfirmHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    askForHost = () => setWanted(true);
    return () => {
      askForHost = undefined;
      hostReady = false;
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider />
      {/* After the provider's own effects (its listeners), being the sibling after it. */}
      <OnMount onMount={onHostReady} />
    </Suspense>
  );
}

function OnMount({ onMount }: { onMount: () => void }) {
  useEffect(onMount, [onMount]);
  return null;
}
