import type { DeviceType } from '@vrtc/server/platform/database/schema.ts';

/**
 * What the demo database holds, as plain data: organisations, logins, a bilingual scenario
 * catalogue, trainees and headsets. `demo.seed.ts` writes it; `demo.main.ts` prints the logins.
 */

export const DEMO_ADMIN = { email: 'admin@demo.local', password: 'admin-demo' } as const;
export const DEMO_STAFF = { email: 'staff@demo.local', password: 'staff-demo' } as const;
/** Client login of the second organisation (shown on the admin screens, not printed). */
export const DEMO_PARTNER = {
  email: 'coordinator@nordic.demo.local',
  password: 'nordic-demo',
} as const;

export const DEMO_ORGANIZATION = 'Учебный центр «Вектор»';
export const PARTNER_ORGANIZATION = 'Nordic Logistics Ltd.';

export interface LevelSpec {
  name: string;
  description: string;
  maxTasks: number;
  options: Array<{ name: string; description: string }>;
}
export interface ModuleSpec {
  name: string;
  description: string;
  levels: LevelSpec[];
}
/** How the demo organisation holds a scenario: for good, soon expiring, far ahead, or expired. */
export type DemoGrant = 'never' | 'expiring' | 'active' | 'expired';
export interface ScenarioSpec {
  key: 'fire' | 'height' | 'first-aid' | 'forklift';
  name: string;
  description: string;
  demoGrant: DemoGrant;
  /** The partner organisation's grant, if any. */
  partnerGrant?: DemoGrant;
  modules: ModuleSpec[];
}

/** Days from now at which each grant state expires (null: no expiry). */
export const GRANT_EXPIRY_DAYS: Record<DemoGrant, number | null> = {
  never: null,
  expiring: 18,
  active: 240,
  expired: -9,
};

const opt = (name: string, description: string) => ({ name, description });

export const SCENARIOS: ScenarioSpec[] = [
  {
    key: 'fire',
    name: 'Пожарная безопасность',
    description:
      'Действия при пожаре в офисе и на складе: тревога, эвакуация, первичные средства пожаротушения.',
    demoGrant: 'never',
    modules: [
      {
        name: 'Эвакуация из офиса',
        description: 'Сигнал тревоги, выбор безопасного маршрута, сбор на точке эвакуации.',
        levels: [
          {
            name: 'Знакомство с планом эвакуации',
            description: 'Найти план эвакуации, ближайший выход и огнетушитель.',
            maxTasks: 3,
            options: [opt('Ночь', 'Аварийное освещение'), opt('Задымление', 'Видимость 2–3 метра')],
          },
          {
            name: 'Эвакуация с посетителями',
            description: 'Вывести группу посетителей, проверить переговорную и санузлы.',
            maxTasks: 5,
            options: [
              opt('Задымление', 'Видимость 2–3 метра'),
              opt('Заблокированный выход', 'Основной выход закрыт'),
              opt('Паника', 'Посетители не слушают указаний'),
            ],
          },
        ],
      },
      {
        name: 'Тушение возгорания',
        description: 'Выбор огнетушителя по классу пожара и его применение.',
        levels: [
          {
            name: 'Порошковый огнетушитель',
            description: 'Возгорание корзины для бумаг: сорвать пломбу, направить струю, потушить.',
            maxTasks: 3,
            options: [opt('Ветер', 'Сквозняк из открытого окна')],
          },
          {
            name: 'Электрооборудование под напряжением',
            description: 'Горит серверная стойка: обесточить, выбрать углекислотный огнетушитель.',
            maxTasks: 4,
            options: [opt('Ночь', 'Аварийное освещение'), opt('Задымление', 'Видимость 2–3 метра')],
          },
          {
            name: 'Склад с горючими материалами',
            description: 'Возгорание паллет на складе: тревога, локализация, встреча пожарных.',
            maxTasks: 6,
            options: [
              opt('Ночь', 'Аварийное освещение'),
              opt('Задымление', 'Видимость 2–3 метра'),
              opt('Ограничение времени', '5 минут на все задания'),
            ],
          },
        ],
      },
    ],
  },
  {
    key: 'height',
    name: 'Working at Height',
    description: 'Fall protection on scaffolds and roofs: equipment checks, anchoring, rescue.',
    demoGrant: 'expiring',
    partnerGrant: 'never',
    modules: [
      {
        name: 'Harness inspection',
        description: 'Inspect a full-body harness and lanyard before use.',
        levels: [
          {
            name: 'Spot the defects',
            description: 'Find the worn webbing, the cracked buckle and the expired tag.',
            maxTasks: 4,
            options: [opt('Low light', 'Dim warehouse lighting')],
          },
          {
            name: 'Donning and fitting',
            description: 'Put on the harness, adjust leg straps and check the dorsal D-ring.',
            maxTasks: 3,
            options: [opt('Time limit', 'Three minutes for the whole check')],
          },
        ],
      },
      {
        name: 'Scaffold work',
        description: 'Move safely on a scaffold, staying tied off at all times.',
        levels: [
          {
            name: 'Climbing and tying off',
            description: 'Climb to the second lift using 100% tie-off.',
            maxTasks: 4,
            options: [opt('Wind', 'Gusts up to 12 m/s'), opt('Rain', 'Wet, slippery boards')],
          },
          {
            name: 'Rescue of a suspended worker',
            description:
              'A colleague hangs in his harness: raise the alarm and start the rescue plan.',
            maxTasks: 6,
            options: [
              opt('Night', 'Floodlights only'),
              opt('Rain', 'Wet, slippery boards'),
              opt('Wind', 'Gusts up to 12 m/s'),
            ],
          },
        ],
      },
    ],
  },
  {
    key: 'first-aid',
    name: 'Первая помощь',
    description: 'Оказание первой помощи до приезда скорой: оценка обстановки, СЛР, кровотечения.',
    demoGrant: 'active',
    modules: [
      {
        name: 'Сердечно-лёгочная реанимация',
        description: 'Проверка сознания и дыхания, вызов скорой, компрессии и вдохи.',
        levels: [
          {
            name: 'Взрослый пострадавший',
            description: 'Человек упал в коридоре и не дышит.',
            maxTasks: 5,
            options: [
              opt('Шум', 'Громкая музыка в помещении'),
              opt('Зрители', 'Вокруг собралась толпа'),
            ],
          },
          {
            name: 'СЛР с дефибриллятором',
            description: 'Найти АНД, наложить электроды, следовать голосовым подсказкам.',
            maxTasks: 6,
            options: [opt('Ограничение времени', 'Разряд не позднее чем через 3 минуты')],
          },
        ],
      },
      {
        name: 'Остановка кровотечения',
        description: 'Прямое давление, давящая повязка, кровоостанавливающий жгут.',
        levels: [
          {
            name: 'Порез кисти',
            description: 'Остановить кровотечение давящей повязкой.',
            maxTasks: 3,
            options: [opt('Зрители', 'Вокруг собралась толпа')],
          },
          {
            name: 'Артериальное кровотечение',
            description: 'Наложить жгут выше раны и записать время.',
            maxTasks: 4,
            options: [opt('Ночь', 'Освещение фонариком'), opt('Дождь', 'Происшествие на улице')],
          },
        ],
      },
    ],
  },
  {
    key: 'forklift',
    name: 'Forklift Operation',
    description:
      'Counterbalance forklift: pre-shift check, loading a truck, pedestrians in the aisle.',
    demoGrant: 'expired',
    partnerGrant: 'active',
    modules: [
      {
        name: 'Pre-shift inspection',
        description: 'Walk-around check of the truck before the first lift.',
        levels: [
          {
            name: 'Daily checklist',
            description: 'Tyres, forks, chains, hydraulics, horn and lights.',
            maxTasks: 4,
            options: [opt('Low light', 'Dim warehouse lighting')],
          },
          {
            name: 'Battery and charging',
            description: 'Check the electrolyte, connect the charger, ventilate the area.',
            maxTasks: 3,
            options: [],
          },
        ],
      },
      {
        name: 'Loading dock',
        description: 'Load a trailer at the dock without hitting people or racks.',
        levels: [
          {
            name: 'Pallet to trailer',
            description: 'Move six pallets from the rack into the trailer.',
            maxTasks: 5,
            options: [opt('Rain', 'Wet dock plate'), opt('Night', 'Floodlights only')],
          },
          {
            name: 'Pedestrians in the aisle',
            description: 'Pedestrians appear in the aisle: slow down, sound the horn, give way.',
            maxTasks: 6,
            options: [
              opt('Crowd', 'Shift change, many pedestrians'),
              opt('Time limit', 'The truck leaves in 10 minutes'),
              opt('Night', 'Floodlights only'),
            ],
          },
        ],
      },
    ],
  },
];

export interface VrUserSpec {
  name: string;
  notes: string | null;
  /** 0..1: how often this trainee trains, relative to the others. */
  activity: number;
  /** 0..1: added to the chance of a successful run. */
  skill: number;
}

export const DEMO_VR_USERS: VrUserSpec[] = [
  { name: 'Иванов Алексей', notes: 'Склад, смена А', activity: 1, skill: 0.05 },
  { name: 'Петрова Мария', notes: 'Старший администратор ресепшена', activity: 0.9, skill: 0.1 },
  { name: 'Смирнов Дмитрий', notes: 'Водитель погрузчика, стаж 2 года', activity: 0.8, skill: 0 },
  { name: 'Кузнецова Ольга', notes: 'Новый сотрудник, первая неделя', activity: 0.7, skill: -0.15 },
  {
    name: 'Соколов Артём',
    notes: 'Монтажник, допуск к высотным работам',
    activity: 0.9,
    skill: 0.05,
  },
  { name: 'Попова Екатерина', notes: null, activity: 0.5, skill: 0 },
  {
    name: 'Волков Никита',
    notes: 'Носит очки — проверить посадку шлема',
    activity: 0.6,
    skill: -0.05,
  },
  {
    name: 'Anna Schmidt',
    notes: 'Visiting engineer from the Hamburg office',
    activity: 0.4,
    skill: 0.1,
  },
  { name: 'John Miller', notes: 'Contractor, English-speaking group', activity: 0.5, skill: -0.05 },
  {
    name: 'Лебедева Дарья',
    notes: 'Медпункт, инструктор по первой помощи',
    activity: 0.6,
    skill: 0.15,
  },
];

export const PARTNER_VR_USERS: VrUserSpec[] = [
  { name: 'Erik Johansson', notes: 'Night shift lead', activity: 1, skill: 0.05 },
  {
    name: 'Sara Lindqvist',
    notes: 'New hire, forklift licence pending',
    activity: 0.8,
    skill: -0.1,
  },
  { name: 'Mikko Virtanen', notes: null, activity: 0.6, skill: 0 },
];

export interface DeviceSpec {
  name: string;
  type: DeviceType;
}

/** The five headsets the demo runs as simulators, enrolled through the API. */
export const DEMO_HEADSETS: DeviceSpec[] = [
  { name: 'Quest 3 №1', type: 'quest' },
  { name: 'Quest 3 №2', type: 'quest' },
  { name: 'Quest 3 №3', type: 'quest' },
  { name: 'Pico 4 №1', type: 'pico' },
  { name: 'Pico 4 №2', type: 'pico' },
];

/** A spare headset of the demo organisation that stays offline (seeded, never enrolled). */
export const DEMO_SPARE_DEVICE: DeviceSpec = { name: 'Oculus Quest 2 (резерв)', type: 'oculus' };

export const PARTNER_DEVICES: DeviceSpec[] = [
  { name: 'Dock-Pico-A', type: 'pico' },
  { name: 'Dock-Pico-B', type: 'pico' },
  { name: 'Training-Quest', type: 'quest' },
];
