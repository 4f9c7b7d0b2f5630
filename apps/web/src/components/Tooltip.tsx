import type { TooltipProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import {
  cloneElement,
  isValidElement,
  lazy,
  Suspense,
  useState,
  type ReactElement,
  type PointerEvent,
  type Ref,
} from 'react';

// Mantine's Tooltip and floating-ui (~15 KB brotli) load when a mouse first reaches the element,
// not with the page (issue #27).
const MantineTooltip = lazy(() =>
  import('./tooltip-impl').then((module) => ({ default: module.Tooltip })),
);

/**
 * Mantine's Tooltip, same props, loaded on first use. The element it labels is rendered here, not
 * by Mantine's Tooltip, so that loading it never replaces that element (a click in progress or the
 * focus stays on it); the tooltip attaches to it by `target`, and opens at once when the pointer
 * is still on the element once loaded.
 */
export function Tooltip({ children, ...props }: TooltipProps) {
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(false);
  const child = isValidElement(children)
    ? (children as ReactElement<{
        ref?: Ref<HTMLElement>;
        onPointerEnter?: (event: PointerEvent) => void;
      }>)
    : null;
  const ref = useMergedRef(child?.props.ref, setTarget);
  if (!child) return children;
  const focus = props.events?.focus === true;
  const want = () => setWanted(true);
  // Mantine's Tooltip leaves a finger's touch alone unless `events.touch` says otherwise.
  const wantFrom = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' || props.events?.touch) want();
  };
  return (
    <>
      {cloneElement(child, {
        ref,
        onPointerEnter: chain(child.props.onPointerEnter, wantFrom),
        ...(focus
          ? { onFocus: chain((child.props as { onFocus?: () => void }).onFocus, want) }
          : {}),
      })}
      {wanted && target ? (
        <Suspense fallback={null}>
          <MantineTooltip
            {...props}
            target={target}
            defaultOpened={target.matches(':hover') || (focus && target.matches(':focus-visible'))}
          />
        </Suspense>
      ) : null}
    </>
  );
}

function chain<A extends unknown[]>(
  first: ((...args: A) => void) | undefined,
  then: (...args: A) => void,
) {
  return (...args: A) => {
    first?.(...args);
    then(...args);
  };
}
