// Mantine's Notifications and their styles, for components/Toasts.tsx to load with the first toast.
import '@mantine/notifications/styles.css';

export { Notifications } from '@mantine/notifications';
