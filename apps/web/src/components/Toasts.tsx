import { useNotifications, type NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The toasts' container (transitions, portal, Mantine's Notification) loads with the first toast,
// not with the page (issue #27). lib/notify.ts writes to Mantine's store, which this watches.
const Notifications = lazy(() =>
  import('./toasts-impl').then((module) => ({ default: module.Notifications })),
);

/** Mantine's `<Notifications />`, mounted once the first toast is shown. */
export function Toasts(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
