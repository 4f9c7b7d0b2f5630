import type { ActiveSession } from '@vrtc/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a session that ended stays on the Active tab, with its outcome. */
export const ENDED_CARD_MS = 8000;

/** A session the active list held and no longer does. */
export interface EndedSession {
  /** As the active list last showed it. */
  session: ActiveSession;
  endedSeenAt: number;
}

/**
 * The sessions that left the active list (ended on the headset, by the server, or in another
 * tab), each kept for ENDED_CARD_MS so that its outcome can be shown: without this the card
 * vanished at once and the result was never seen. A card held (`hold`: the pointer on it, or the
 * focus in it) stays until let go, and then for ENDED_CARD_MS more, like a toast: it must not
 * vanish while being read. A session cancelled here (`dismiss` before the list reads again) is
 * not kept: its toast already said so. Until the list has been read once, nothing is taken for
 * ended.
 */
export function useEndedSessions(list: ActiveSession[] | undefined, lingerMs = ENDED_CARD_MS) {
  const [ended, setEnded] = useState<EndedSession[]>([]);
  const previous = useRef<ActiveSession[] | undefined>(undefined);
  const dismissed = useRef(new Set<string>());
  // The sessions shown as ended and not held, each with the timer that takes it away.
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const removeLater = useCallback(
    (id: string) => {
      clearTimeout(timers.current.get(id));
      const timer = setTimeout(() => {
        timers.current.delete(id);
        setEnded((current) => current.filter((item) => item.session.id !== id));
      }, lingerMs);
      timers.current.set(id, timer);
    },
    [lingerMs],
  );

  useEffect(() => {
    const before = previous.current;
    previous.current = list;
    if (!before || !list) return;
    const still = new Set(list.map((session) => session.id));
    const gone = before.filter(
      (session) => !still.has(session.id) && !dismissed.current.delete(session.id),
    );
    if (gone.length === 0) return;
    const now = Date.now();
    const ids = new Set(gone.map((session) => session.id));
    setEnded((current) => [
      ...current.filter((item) => !ids.has(item.session.id)),
      ...gone.map((session) => ({ session, endedSeenAt: now })),
    ]);
    for (const id of ids) removeLater(id);
  }, [list, removeLater]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  /** A session this console ended itself: not shown as ended when it leaves the list. */
  const dismiss = useCallback((id: string) => {
    dismissed.current.add(id);
  }, []);

  /** Keeps an ended session's card while `held`; let go, it leaves ENDED_CARD_MS later. */
  const hold = useCallback(
    (id: string, held: boolean) => {
      if (held) {
        clearTimeout(timers.current.get(id));
        timers.current.delete(id);
      } else if (!timers.current.has(id)) {
        removeLater(id);
      }
    },
    [removeLater],
  );

  return { ended, dismiss, hold };
}
