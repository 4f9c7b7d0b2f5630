import type { ScenarioTree } from '@vrtc/contract';
import { describe, expect, it } from 'vitest';
import { contentText } from '../../lib/content-text';
import { levelOptions } from './level-options';
import { qualificationBody } from './QualificationFormModal';

const LEVEL = '00000000-0000-4000-8000-0000000000b1';
const GONE = '00000000-0000-4000-8000-0000000000b9';
const tree: ScenarioTree[] = [
  {
    id: '00000000-0000-4000-8000-0000000000d1',
    name: 'Склад',
    name_en: 'Warehouse',
    description: '',
    description_en: null,
    active: true,
    access_expires_at: null,
    modules: [
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        name: 'Погрузчик',
        name_en: 'Forklift',
        description: '',
        description_en: null,
        order_index: 0,
        levels: [
          {
            id: LEVEL,
            name: 'Вождение',
            name_en: null,
            level_number: 1,
            description: '',
            description_en: null,
            max_tasks: 3,
            options: [],
          },
        ],
      },
    ],
  },
];

describe('levelOptions', () => {
  it('groups levels by scenario in the language shown, English falling back to Russian', () => {
    expect(levelOptions(tree, contentText('en'), [LEVEL], 'Gone')).toEqual([
      { group: 'Warehouse', items: [{ value: LEVEL, label: 'Forklift — 1. Вождение' }] },
    ]);
  });

  it('keeps a chosen level that is no longer available, so it can be seen and removed', () => {
    const groups = levelOptions(tree, contentText('ru'), [LEVEL, GONE], 'Недоступен');
    expect(groups[1]).toEqual({
      group: 'Недоступен',
      items: [{ value: GONE, label: 'Недоступен 1' }],
    });
  });
});

describe('qualificationBody', () => {
  it('sends blank optional texts as null and "never lapses" as a null validity', () => {
    expect(
      qualificationBody({
        name: ' Погрузчик ',
        name_en: ' ',
        description: '',
        level_ids: [LEVEL],
        never: true,
        validity_days: 365,
        expiring_within_days: '14',
        evaluation_required: true,
      }),
    ).toEqual({
      name: 'Погрузчик',
      name_en: null,
      description: null,
      level_ids: [LEVEL],
      validity_days: null,
      expiring_within_days: 14,
      evaluation_required: true,
    });
  });
});
