import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useResetOnOpen } from './use-reset-on-open';

/** The dialog's props over time, and the values each reset saw. */
function dialog(initial: { opened: boolean; id?: string; name: string }) {
  const resets: string[] = [];
  const hook = renderHook(
    (props: { opened: boolean; id?: string; name: string }) =>
      useResetOnOpen(props.opened, props.id, () => resets.push(props.name)),
    { initialProps: initial },
  );
  return { resets, rerender: (props: typeof initial) => act(() => hook.rerender(props)) };
}

describe('a dialog form reset on opening', () => {
  it('resets when it opens, with the values of that render', () => {
    const { resets, rerender } = dialog({ opened: false, name: 'closed' });
    expect(resets).toEqual([]);
    rerender({ opened: true, id: 'a', name: 'Ann' });
    expect(resets).toEqual(['Ann']);
  });

  it('keeps what is typed while it stays open for the same item', () => {
    const { resets, rerender } = dialog({ opened: true, id: 'a', name: 'Ann' });
    rerender({ opened: true, id: 'a', name: 'Ann, renamed elsewhere' });
    rerender({ opened: true, id: 'a', name: 'Ann' });
    expect(resets).toEqual(['Ann']);
  });

  it('resets again when opened for another item, or opened once more', () => {
    const { resets, rerender } = dialog({ opened: true, id: 'a', name: 'Ann' });
    rerender({ opened: true, id: 'b', name: 'Bob' });
    rerender({ opened: false, id: 'b', name: 'Bob' });
    rerender({ opened: true, id: 'b', name: 'Bob' });
    expect(resets).toEqual(['Ann', 'Bob', 'Bob']);
  });

  it('does nothing while closed, whatever the item', () => {
    const { resets, rerender } = dialog({ opened: false, id: 'a', name: 'Ann' });
    rerender({ opened: false, id: 'b', name: 'Bob' });
    expect(resets).toEqual([]);
  });
});
