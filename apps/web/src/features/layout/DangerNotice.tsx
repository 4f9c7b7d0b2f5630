import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A red notice above a screen (the server cannot be reached, a screen could not load). Built from
 * the layout's own pieces rather than Mantine's Alert: Alert is the sign-in page's, and sharing it
 * with the layout moved a whole shared chunk onto every first signed-in visit (the 200 KB budget).
 */
export function DangerNotice({
  title,
  icon,
  children,
  role,
  testId,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  role?: 'alert';
  testId: string;
}) {
  return (
    <Paper
      role={role}
      data-testid={testId}
      withBorder
      radius="md"
      p="md"
      mb="md"
      bg="red.0"
      style={{ borderColor: 'var(--mantine-color-red-3)' }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm" c="red.9">
        {icon}
        <Stack gap={4}>
          <Text fw={600} size="sm">
            {title}
          </Text>
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}
