import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * What a list shows when it has nothing: an icon, a title, a sentence and, when there is
 * something to do about it (add the first one, show all again), one action. Every screen's empty
 * list looks the same.
 */
export function Empty({
  icon,
  title,
  description,
  action,
  inCard = false,
}: {
  icon?: ReactNode;
  title: string;
  description?: string;
  action?: ReactNode;
  /** Inside a card of its own, which gives it its room (no padding of its own then). */
  inCard?: boolean;
}) {
  return (
    <EmptyState
      py={inCard ? undefined : 'xl'}
      icon={icon}
      withIndicatorBackground={Boolean(icon)}
      title={title}
      description={description}
    >
      {action ? <EmptyState.Actions>{action}</EmptyState.Actions> : null}
    </EmptyState>
  );
}
