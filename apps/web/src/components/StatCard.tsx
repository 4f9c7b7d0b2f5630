import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** A figure with its label, for the stat rows at the top of a screen. */
export function StatCard({
  label,
  value,
  icon,
  color = 'blue',
  hint,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  color?: string;
  hint?: ReactNode;
}) {
  return (
    <Card withBorder radius="lg" p="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text
            size="xs"
            c="dimmed"
            tt="uppercase"
            fw={700}
            lh={1.3}
            style={{ overflowWrap: 'break-word', hyphens: 'auto' }}
          >
            {label}
          </Text>
          <Text fz={{ base: 22, xs: 26 }} fw={700} lh={1.25} mt={6} data-testid="stat-value">
            {value}
          </Text>
          {hint ? (
            <Text size="xs" c="dimmed" mt={2}>
              {hint}
            </Text>
          ) : null}
        </div>
        {/* On a phone's narrow card the label needs the room more than the icon does. */}
        {icon ? (
          <ThemeIcon variant="light" color={color} size={38} radius="md" visibleFrom="xs">
            {icon}
          </ThemeIcon>
        ) : null}
      </Group>
    </Card>
  );
}
