import { Alert, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** One selectable card of a list of choices (devices, scenarios, modules, levels). */
export function ChoiceCards<T extends { id: string }>({
  label,
  items,
  value,
  onChange,
  render,
}: {
  label: string;
  items: T[];
  value: string | null;
  onChange: (id: string) => void;
  render: (item: T) => ReactNode;
}) {
  return (
    <Radio.Group label={label} value={value} onChange={onChange}>
      <SimpleGrid type="container" cols={{ base: 1, '520px': 2, '900px': 3 }} spacing="sm" mt="xs">
        {items.map((item) => (
          <Radio.Card key={item.id} value={item.id} radius="md" p="md" withBorder>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <Stack gap={2} style={{ minWidth: 0 }}>
                {render(item)}
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}

/** What a choice card shows: its title, its description if any, and one dimmed fact. */
export function ChoiceBody({
  title,
  description,
  note,
}: {
  title: string;
  description: string;
  note: string;
}) {
  return (
    <>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {description ? (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {description}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </>
  );
}

/** A step with nothing to choose: why. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle />}>
      {children}
    </Alert>
  );
}
