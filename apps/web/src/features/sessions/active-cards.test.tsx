import { act, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActiveSession, SessionDetail } from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ActiveSessions } from './ActiveSessions';
import { signalOf } from './active-signal';
import { EndedSessionCard } from './EndedSessionCard';
import { useEndedSessions } from './use-ended-sessions';

/**
 * The states of an Active card: running and heard from, its headset silent (for how long, and
 * when the server ends the session), just ended with its outcome.
 */

const SESSION = '00000000-0000-4000-8000-000000000099';
const thresholds = { offline_after_ms: 15_000, disconnect_after_ms: 60_000 };
const STARTED = Date.parse('2026-05-10T12:00:00.000Z');

/** A session 65 s old by the server's clock, its headset last heard from `silentS` s ago. */
function running(silentS: number | null): ActiveSession {
  return {
    id: SESSION,
    vr_user_name: 'Ivan Petrov',
    device_name: 'Quest 1',
    device_id: '00000000-0000-4000-8000-0000000000d1',
    scenario_name: 'Пожарная безопасность',
    scenario_name_en: 'Fire safety',
    module_name: 'Основы',
    module_name_en: 'Basics',
    level_name: 'Вводный',
    level_name_en: 'Intro',
    // Chosen at the start: the card names them in the console's language.
    selected_options: [
      { id: '00000000-0000-4000-8000-0000000000e1', name: 'Дым', name_en: 'Smoke' },
      { id: '00000000-0000-4000-8000-0000000000e2', name: 'Ночь', name_en: null },
    ],
    seconds_active: 65,
    completed_tasks: 1,
    max_tasks: 3,
    started_at: new Date(STARTED).toISOString(),
    device_last_seen_at:
      silentS === null ? null : new Date(STARTED + (65 - silentS) * 1000).toISOString(),
    tasks: [
      {
        number: 1,
        key: null,
        name: 'Climb the ladder',
        result: 'passed',
        score: 92,
        duration_ms: 41_000,
        reported_at: '2026-05-10T12:00:41.000Z',
        occurred_at: null,
      },
    ],
  };
}

const finished: SessionDetail = {
  id: SESSION,
  vr_user_name: 'Ivan Petrov',
  device_name: 'Quest 1',
  device_id: '00000000-0000-4000-8000-0000000000d1',
  vr_user_id: null,
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Вводный',
  level_name_en: 'Intro',
  level_number: 1,
  level_revision: 1,
  status: 'completed',
  completed_tasks: 3,
  total_tasks: 3,
  max_tasks: 3,
  duration_seconds: 150,
  started_by_email: 'staff@example.com',
  started_at: '2026-05-10T12:00:00.000Z',
  ended_at: '2026-05-10T12:02:30.000Z',
  success: true,
  selected_options: [],
  late_result: false,
  ended_by_server_as: null,
  tasks: [
    {
      number: 3,
      key: null,
      name: 'Put out the fire',
      result: 'passed',
      score: 88,
      duration_ms: 30_000,
      reported_at: '2026-05-10T12:02:29.000Z',
      occurred_at: null,
    },
  ],
};

describe('whether a headset is heard from', () => {
  it('is silent only once the server says so, counting on from there', () => {
    expect(signalOf(running(5), thresholds, 0)).toEqual({ kind: 'ok' });
    // Heard from 5 s before the list was read, 11 s ago: the list must be read again first.
    expect(signalOf(running(5), thresholds, 11_000)).toEqual({ kind: 'check' });
    expect(signalOf(running(20), thresholds, 3_000)).toEqual({
      kind: 'silent',
      silentMs: 23_000,
      disconnectInMs: 37_000,
    });
    expect(signalOf(running(70), thresholds, 0)).toMatchObject({ kind: 'silent' });
    // Never heard from (or deleted): silent since the start.
    expect(signalOf(running(null), thresholds, 0)).toEqual({
      kind: 'silent',
      silentMs: 65_000,
      disconnectInMs: -5_000,
    });
  });
});

function serveActive(answer: () => ActiveSession[]) {
  return mockFetch({
    'GET /v1/sessions/active': () => ({ active_sessions: answer(), ...thresholds }),
    [`GET /v1/sessions/${SESSION}`]: finished,
  });
}

describe('the Active card', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('says nothing of the signal while the headset is heard from', async () => {
    serveActive(() => [running(3)]);
    renderWithProviders(<ActiveSessions onStartNew={() => undefined} />);
    const card = await screen.findByTestId('active-session');
    expect(card).toHaveAttribute('data-signal', 'ok');
    expect(within(card).queryByTestId('no-signal')).not.toBeInTheDocument();
    // The options the session was started with, in the console's language.
    expect(within(card).getByTestId('active-options')).toHaveTextContent('Smoke, Ночь');
  });

  it('says for how long a silent headset has not been heard from, and what happens next', async () => {
    serveActive(() => [running(20)]);
    renderWithProviders(<ActiveSessions onStartNew={() => undefined} />);
    const card = await screen.findByTestId('active-session');
    expect(card).toHaveAttribute('data-signal', 'silent');
    const notice = within(card).getByTestId('no-signal');
    expect(notice).toHaveTextContent(/No signal from the headset for 2\d\ss/);
    expect(notice).toHaveTextContent(
      /If it stays silent, the session ends as “Disconnected” in [34]\d\ss\./,
    );
    expect(notice).toHaveTextContent('A result the headset sends later is still recorded.');
  });

  it('says it in Russian, and that the session is being ended once it is due', async () => {
    await i18n.changeLanguage('ru');
    serveActive(() => [running(61)]);
    renderWithProviders(<ActiveSessions onStartNew={() => undefined} />);
    const notice = await screen.findByTestId('no-signal');
    expect(notice).toHaveTextContent(/Нет сигнала от шлема 6\d\sс/);
    expect(notice).toHaveTextContent('Сессия завершается со статусом «Связь потеряна».');
    expect(notice).toHaveTextContent(
      'Результат, который шлем пришлёт позже, всё равно будет записан.',
    );
  });

  it('stays a few seconds once the session ended, with its outcome, a toast and its details', async () => {
    const user = userEvent.setup();
    let list = [running(2)];
    serveActive(() => list);
    renderWithProviders(<ActiveSessions onStartNew={() => undefined} />);
    await screen.findByTestId('active-session');

    // The list is read again (a poll every 5 s here): the session has gone from it.
    list = [];
    await screen.findByTestId('ended-session', {}, { timeout: 10_000 });
    const ended = screen.getByTestId('ended-session');
    expect(await within(ended).findByText('Passed')).toBeInTheDocument();
    expect(within(ended).getByTestId('ended-tasks')).toHaveTextContent('3/3');
    expect(within(ended).getByTestId('ended-last-task')).toHaveTextContent(
      'Task 3: Put out the fire · passed · score 88',
    );
    expect(await screen.findByText('Session of Ivan Petrov ended: Passed')).toBeInTheDocument();
    await user.click(within(ended).getByRole('button', { name: 'Session details' }));
    expect(
      await screen.findByRole('dialog', { name: 'Session of Ivan Petrov' }),
    ).toBeInTheDocument();
  });
});

describe('an ended card being read', () => {
  beforeEach(() => i18n.changeLanguage('en'));
  afterEach(() => vi.useRealTimers());

  /** The Active list over time, and the sessions shown as ended. */
  function endedOf(lingerMs: number) {
    vi.useFakeTimers();
    const hook = renderHook((list: ActiveSession[]) => useEndedSessions(list, lingerMs), {
      initialProps: [running(2)],
    });
    const shown = () => hook.result.current.ended.map((item) => item.session.id);
    const after = (ms: number) => act(() => vi.advanceTimersByTime(ms));
    return { hook, shown, after, end: () => hook.rerender([]) };
  }

  it('leaves a few seconds after the session ended, when nobody holds it', () => {
    const { shown, after, end } = endedOf(8000);
    end();
    expect(shown()).toEqual([SESSION]);
    after(7900);
    expect(shown()).toEqual([SESSION]);
    after(200);
    expect(shown()).toEqual([]);
  });

  it('stays while held, however long, and leaves the same few seconds after it is let go', () => {
    const { hook, shown, after, end } = endedOf(8000);
    end();
    after(5000);
    act(() => hook.result.current.hold(SESSION, true));
    after(60_000);
    expect(shown()).toEqual([SESSION]);
    act(() => hook.result.current.hold(SESSION, false));
    after(7900);
    expect(shown()).toEqual([SESSION]);
    after(200);
    expect(shown()).toEqual([]);
  });

  it('is held by the pointer on it or the focus in it, and let go when both have left', async () => {
    serveActive(() => []);
    const held: boolean[] = [];
    renderWithProviders(
      <>
        <button type="button">Elsewhere</button>
        <EndedSessionCard
          ended={{ session: running(2), endedSeenAt: Date.now() }}
          onOpenDetails={() => undefined}
          onHold={(id, isHeld) => held.push(id === SESSION && isHeld)}
        />
      </>,
    );
    const user = userEvent.setup();
    const card = await screen.findByTestId('ended-session');
    await user.hover(card);
    expect(held).toEqual([true]);
    // The focus coming into the card's button while the pointer is on it changes nothing; nor does
    // the pointer leaving while the focus stays in the card.
    const details = within(card).getByRole('button', { name: 'Session details' });
    act(() => details.focus());
    expect(details).toHaveFocus();
    await user.unhover(card);
    expect(held).toEqual([true]);
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(held).toEqual([true, false]);
  });
});
