import { useEffect, useEffectEvent } from 'react';

/**
 * Fills a dialog's form afresh each time it opens, and when it opens for another item while
 * open (`key`: the item's id, or the target itself), but not on every render: the typing in an
 * open dialog stays. `reset` is read when it runs, so it may use the render's values freely.
 */
export function useResetOnOpen(opened: boolean, key: unknown, reset: () => void): void {
  const onOpen = useEffectEvent(reset);
  useEffect(() => {
    if (opened) onOpen();
  }, [opened, key]);
}
