import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads the first time it opens, not with the page that has it: a list's
 * page then carries its table, not its forms (issue #27). Once loaded it stays mounted, so it
 * opens and closes as any dialog does. On the first opening it is mounted closed and opened just
 * after, so that opening is animated like the later ones.
 *
 * `isOpen` says from the dialog's props whether it is open; `closed` gives its props when closed.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
  closed: (props: P) => P,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const open = isOpen(props);
    const [wanted, setWanted] = useState(open);
    const [mounted, setMounted] = useState(false);
    // Asked for once: loaded, and kept from then on.
    if (open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...(mounted ? props : closed(props))} />
        <OnMount onMount={() => setMounted(true)} />
      </Suspense>
    );
  };
}

/** Calls `onMount` once committed: after the dialog beside it, in the same Suspense boundary. */
function OnMount({ onMount }: { onMount: () => void }) {
  useEffect(onMount, [onMount]);
  return null;
}
