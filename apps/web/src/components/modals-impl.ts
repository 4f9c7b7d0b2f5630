// Mantine's ModalsProvider, for components/confirm.tsx to load with the first confirmation.
export { ModalsProvider } from '@mantine/modals';
