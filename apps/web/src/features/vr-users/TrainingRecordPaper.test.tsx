import { screen, within } from '@testing-library/react';
import type { HistorySession, TrainingRecord } from '@vrtc/contract';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { TrainingRecordCards } from './TrainingRecordCards';
import { TrainingRecordPaper } from './TrainingRecordPaper';

const ID = '00000000-0000-4000-8000-0000000000a1';
const names = {
  scenario_name: 'Пожарная безопасность',
  scenario_name_en: 'Fire safety',
  module_name: 'Основы',
  module_name_en: 'Basics',
  level_name: 'Склад',
  level_name_en: 'Depot',
};
const result = (id: string, completed: number, success: boolean, day: string) => ({
  session_id: id,
  completed_tasks: completed,
  max_tasks: 3,
  success,
  started_at: `2026-05-${day}T09:00:00.000Z`,
  ended_at: `2026-05-${day}T09:05:00.000Z`,
});
const record: TrainingRecord = {
  vr_user: { id: ID, name: 'Ivan Petrov' },
  organization_name: 'Depot North',
  qualifications: [],
  levels: [
    {
      level_id: '00000000-0000-4000-8000-0000000000f1',
      ...names,
      level_number: 1,
      revisions: [2],
      attempts: 2,
      completions: 1,
      best: result('00000000-0000-4000-8000-0000000000c1', 3, true, '03'),
      last: result('00000000-0000-4000-8000-0000000000c2', 1, false, '12'),
      first_completed_at: '2026-05-03T09:05:00.000Z',
      last_completed_at: '2026-05-03T09:05:00.000Z',
      training_seconds: 600,
    },
  ],
  totals: {
    attempts: 2,
    completions: 1,
    levels_attempted: 1,
    levels_completed: 1,
    training_seconds: 600,
  },
};
const session = (id: string, day: string, success: boolean, email: string | null) =>
  ({
    id,
    vr_user_id: ID,
    vr_user_name: 'Ivan Petrov',
    device_id: null,
    device_name: 'Quest 7',
    ...names,
    level_number: 1,
    level_revision: 2,
    status: 'completed',
    completed_tasks: success ? 3 : 1,
    total_tasks: 3,
    duration_seconds: 300,
    started_by_email: email,
    started_at: `2026-05-${day}T09:00:00.000Z`,
    ended_at: `2026-05-${day}T09:05:00.000Z`,
    success,
    selected_options: [],
    late_result: false,
    ended_by_server_as: null,
  }) satisfies HistorySession;
const sessions = [
  session('00000000-0000-4000-8000-0000000000c1', '03', true, 'instructor@example.com'),
  session('00000000-0000-4000-8000-0000000000c2', '12', false, null),
];

describe("a trainee's record on paper", () => {
  it('names the organisation, the trainee, the period and lists every session with who ran it', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<TrainingRecordPaper record={record} sessions={sessions} />);
    const header = screen.getByTestId('print-header');
    expect(header).toHaveTextContent('Organization: Depot North');
    expect(header).toHaveTextContent('Trainee: Ivan Petrov');
    expect(screen.getByTestId('record-period')).toHaveTextContent('03/05/2026 – 12/05/2026');
    expect(header).toHaveTextContent(/Generated: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);

    const levels = screen.getByTestId('paper-levels');
    expect(
      within(levels)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Scenario / module / level',
      'Attempts',
      'Successful',
      'Best result',
      'Last result',
      'First success',
      'Last success',
      'Training time',
    ]);
    expect(within(levels).getByText('3/3, passed')).toBeInTheDocument();

    const table = screen.getByTestId('paper-sessions');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('instructor@example.com');
    expect(rows[0]).toHaveTextContent('Quest 7');
    expect(rows[0]).toHaveTextContent('3/3, passed');
    // A session nobody started from the console says so rather than leave a blank.
    expect(rows[1]).toHaveTextContent('1/3, not passed');
    expect(within(rows[1]!).getAllByRole('cell').at(-1)).toHaveTextContent('—');

    for (const who of ['Trainee', 'Instructor', 'Inspector']) {
      expect(screen.getByText(who, { selector: 'strong' })).toBeInTheDocument();
    }
    expect(screen.getAllByText('date')).toHaveLength(3);
  });

  it('says when there is no session yet, in Russian', async () => {
    await i18n.changeLanguage('ru');
    renderWithProviders(
      <TrainingRecordPaper
        record={{ ...record, levels: [], totals: { ...record.totals, attempts: 0 } }}
        sessions={[]}
      />,
    );
    expect(screen.getByTestId('record-period')).toHaveTextContent('сессий нет');
    expect(screen.getByText('Сессии (0)')).toBeInTheDocument();
    expect(screen.queryByTestId('paper-sessions')).not.toBeInTheDocument();
  });
});

describe("a trainee's record on a phone", () => {
  it('shows a card per level with every figure labelled', async () => {
    await i18n.changeLanguage('ru');
    renderWithProviders(<TrainingRecordCards levels={record.levels} />);
    const card = screen.getByTestId('record-card');
    expect(within(card).getByText('Пожарная безопасность')).toBeInTheDocument();
    const terms = within(card)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual([
      'Попытки',
      'Успешные',
      'Лучший результат',
      'Последний результат',
      'Первый успех',
      'Последний успех',
      'Время обучения',
    ]);
    expect(within(card).getByText('пройден')).toBeInTheDocument();
    expect(within(card).getByText('не пройден')).toBeInTheDocument();
    expect(within(card).getByText('10 мин 0 с')).toBeInTheDocument();
  });
});
