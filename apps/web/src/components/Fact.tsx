import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One named value of a detail dialog (a session's, an audit event's): the name small and dimmed,
 * the value under it, as a `<dt>`/`<dd>` pair inside the dialog's `<dl>`. A long value (an id, an
 * address, a browser's user agent) breaks anywhere rather than widen the dialog.
 */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" fw={500} component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}
