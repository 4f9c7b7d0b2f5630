// Mantine's Tooltip on its own, for components/Tooltip.tsx to load on first use.
export { Tooltip } from '@mantine/core';
