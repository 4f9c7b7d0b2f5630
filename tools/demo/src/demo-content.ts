import type { DeviceType } from '@vrtc/server/platform/database/schema.ts';

/**
 * What the demo database holds, as plain data: organisations, logins, a scenario catalogue in
 * Russian and English (every name and description), trainees and headsets. `demo.seed.ts` writes
 * it; `demo.main.ts` prints the logins.
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

/**
 * A text of the catalogue in both console languages: `ru` is stored as the primary `name` /
 * `description`, `en` as `name_en` / `description_en`, so each language reads its own.
 */
export interface Bilingual {
  ru: string;
  en: string;
}

export interface OptionSpec {
  name: Bilingual;
  description: Bilingual;
}
export interface LevelSpec {
  name: Bilingual;
  description: Bilingual;
  maxTasks: number;
  options: OptionSpec[];
}
export interface ModuleSpec {
  name: Bilingual;
  description: Bilingual;
  levels: LevelSpec[];
}
/** How the demo organisation holds a scenario: for good, soon expiring, far ahead, or expired. */
export type DemoGrant = 'never' | 'expiring' | 'active' | 'expired';
export interface ScenarioSpec {
  key: 'fire' | 'height' | 'first-aid' | 'forklift';
  name: Bilingual;
  description: Bilingual;
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

const bi = (ru: string, en: string): Bilingual => ({ ru, en });

/** The options the levels share, each in both languages. */
const OPTION = {
  night: {
    name: bi('Ночь', 'Night'),
    description: bi('Аварийное освещение', 'Emergency lighting'),
  },
  nightFlood: {
    name: bi('Ночь', 'Night'),
    description: bi('Только прожекторы', 'Floodlights only'),
  },
  nightTorch: {
    name: bi('Ночь', 'Night'),
    description: bi('Освещение фонариком', 'Torchlight only'),
  },
  smoke: {
    name: bi('Задымление', 'Smoke'),
    description: bi('Видимость 2–3 метра', 'Visibility 2–3 metres'),
  },
  blockedExit: {
    name: bi('Заблокированный выход', 'Blocked exit'),
    description: bi('Основной выход закрыт', 'The main exit is closed'),
  },
  panic: {
    name: bi('Паника', 'Panic'),
    description: bi('Посетители не слушают указаний', 'Visitors ignore instructions'),
  },
  draught: {
    name: bi('Ветер', 'Wind'),
    description: bi('Сквозняк из открытого окна', 'Draught from an open window'),
  },
  fireTimeLimit: {
    name: bi('Ограничение времени', 'Time limit'),
    description: bi('5 минут на все задания', '5 minutes for all tasks'),
  },
  noise: {
    name: bi('Шум', 'Noise'),
    description: bi('Громкая музыка в помещении', 'Loud music in the room'),
  },
  bystanders: {
    name: bi('Зрители', 'Bystanders'),
    description: bi('Вокруг собралась толпа', 'A crowd has gathered around'),
  },
  shockTimeLimit: {
    name: bi('Ограничение времени', 'Time limit'),
    description: bi('Разряд не позднее чем через 3 минуты', 'Shock within 3 minutes'),
  },
  rainOutdoors: {
    name: bi('Дождь', 'Rain'),
    description: bi('Происшествие на улице', 'The accident is outdoors'),
  },
  lowLight: {
    name: bi('Слабое освещение', 'Low light'),
    description: bi('Тусклый свет на складе', 'Dim warehouse lighting'),
  },
  checkTimeLimit: {
    name: bi('Ограничение времени', 'Time limit'),
    description: bi('Три минуты на всю проверку', 'Three minutes for the whole check'),
  },
  gusts: {
    name: bi('Ветер', 'Wind'),
    description: bi('Порывы до 12 м/с', 'Gusts up to 12 m/s'),
  },
  rainBoards: {
    name: bi('Дождь', 'Rain'),
    description: bi('Мокрый скользкий настил', 'Wet, slippery boards'),
  },
  rainDock: {
    name: bi('Дождь', 'Rain'),
    description: bi('Мокрый перегрузочный мост', 'Wet dock plate'),
  },
  crowd: {
    name: bi('Толпа', 'Crowd'),
    description: bi('Пересменка, много пешеходов', 'Shift change, many pedestrians'),
  },
  truckTimeLimit: {
    name: bi('Ограничение времени', 'Time limit'),
    description: bi('Фура уезжает через 10 минут', 'The truck leaves in 10 minutes'),
  },
} satisfies Record<string, OptionSpec>;

export const SCENARIOS: ScenarioSpec[] = [
  {
    key: 'fire',
    name: bi('Пожарная безопасность', 'Fire Safety'),
    description: bi(
      'Действия при пожаре в офисе и на складе: тревога, эвакуация, первичные средства пожаротушения.',
      'What to do in a fire at the office and in the warehouse: alarm, evacuation, first-response extinguishers.',
    ),
    demoGrant: 'never',
    modules: [
      {
        name: bi('Эвакуация из офиса', 'Office evacuation'),
        description: bi(
          'Сигнал тревоги, выбор безопасного маршрута, сбор на точке эвакуации.',
          'Raise the alarm, choose a safe route, gather at the assembly point.',
        ),
        levels: [
          {
            name: bi('Знакомство с планом эвакуации', 'Reading the evacuation plan'),
            description: bi(
              'Найти план эвакуации, ближайший выход и огнетушитель.',
              'Find the evacuation plan, the nearest exit and the extinguisher.',
            ),
            maxTasks: 3,
            options: [OPTION.night, OPTION.smoke],
          },
          {
            name: bi('Эвакуация с посетителями', 'Evacuating visitors'),
            description: bi(
              'Вывести группу посетителей, проверить переговорную и санузлы.',
              'Lead a group of visitors out, check the meeting room and washrooms.',
            ),
            maxTasks: 5,
            options: [OPTION.smoke, OPTION.blockedExit, OPTION.panic],
          },
        ],
      },
      {
        name: bi('Тушение возгорания', 'Putting out a fire'),
        description: bi(
          'Выбор огнетушителя по классу пожара и его применение.',
          'Choose the extinguisher for the class of fire and use it.',
        ),
        levels: [
          {
            name: bi('Порошковый огнетушитель', 'Powder extinguisher'),
            description: bi(
              'Возгорание корзины для бумаг: сорвать пломбу, направить струю, потушить.',
              'A waste-paper basket is burning: break the seal, aim the jet, put it out.',
            ),
            maxTasks: 3,
            options: [OPTION.draught],
          },
          {
            name: bi('Электрооборудование под напряжением', 'Live electrical equipment'),
            description: bi(
              'Горит серверная стойка: обесточить, выбрать углекислотный огнетушитель.',
              'A server rack is on fire: cut the power, pick the CO₂ extinguisher.',
            ),
            maxTasks: 4,
            options: [OPTION.night, OPTION.smoke],
          },
          {
            name: bi('Склад с горючими материалами', 'Warehouse with flammable goods'),
            description: bi(
              'Возгорание паллет на складе: тревога, локализация, встреча пожарных.',
              'Pallets on fire in the warehouse: alarm, containment, meeting the fire brigade.',
            ),
            maxTasks: 6,
            options: [OPTION.night, OPTION.smoke, OPTION.fireTimeLimit],
          },
        ],
      },
    ],
  },
  {
    key: 'height',
    name: bi('Работы на высоте', 'Working at Height'),
    description: bi(
      'Защита от падения на лесах и кровле: проверка снаряжения, страховка, спасение.',
      'Fall protection on scaffolds and roofs: equipment checks, anchoring, rescue.',
    ),
    demoGrant: 'expiring',
    partnerGrant: 'never',
    modules: [
      {
        name: bi('Осмотр страховочной привязи', 'Harness inspection'),
        description: bi(
          'Осмотреть страховочную привязь и строп перед работой.',
          'Inspect a full-body harness and lanyard before use.',
        ),
        levels: [
          {
            name: bi('Найти дефекты', 'Spot the defects'),
            description: bi(
              'Найти потёртую ленту, треснувшую пряжку и просроченную бирку.',
              'Find the worn webbing, the cracked buckle and the expired tag.',
            ),
            maxTasks: 4,
            options: [OPTION.lowLight],
          },
          {
            name: bi('Надевание и подгонка', 'Donning and fitting'),
            description: bi(
              'Надеть привязь, подтянуть ножные лямки, проверить спинное кольцо.',
              'Put on the harness, adjust leg straps and check the dorsal D-ring.',
            ),
            maxTasks: 3,
            options: [OPTION.checkTimeLimit],
          },
        ],
      },
      {
        name: bi('Работа на строительных лесах', 'Scaffold work'),
        description: bi(
          'Безопасно перемещаться по лесам, всё время оставаясь пристёгнутым.',
          'Move safely on a scaffold, staying tied off at all times.',
        ),
        levels: [
          {
            name: bi('Подъём со страховкой', 'Climbing and tying off'),
            description: bi(
              'Подняться на второй ярус, не отстёгиваясь ни на миг.',
              'Climb to the second lift using 100% tie-off.',
            ),
            maxTasks: 4,
            options: [OPTION.gusts, OPTION.rainBoards],
          },
          {
            name: bi('Спасение зависшего работника', 'Rescue of a suspended worker'),
            description: bi(
              'Коллега завис на привязи: поднять тревогу и начать план спасения.',
              'A colleague hangs in his harness: raise the alarm and start the rescue plan.',
            ),
            maxTasks: 6,
            options: [OPTION.nightFlood, OPTION.rainBoards, OPTION.gusts],
          },
        ],
      },
    ],
  },
  {
    key: 'first-aid',
    name: bi('Первая помощь', 'First Aid'),
    description: bi(
      'Оказание первой помощи до приезда скорой: оценка обстановки, СЛР, кровотечения.',
      'First aid until the ambulance arrives: assessing the scene, CPR, bleeding.',
    ),
    demoGrant: 'active',
    modules: [
      {
        name: bi('Сердечно-лёгочная реанимация', 'Cardiopulmonary resuscitation'),
        description: bi(
          'Проверка сознания и дыхания, вызов скорой, компрессии и вдохи.',
          'Check response and breathing, call the ambulance, compressions and breaths.',
        ),
        levels: [
          {
            name: bi('Взрослый пострадавший', 'Adult casualty'),
            description: bi(
              'Человек упал в коридоре и не дышит.',
              'A man has collapsed in the corridor and is not breathing.',
            ),
            maxTasks: 5,
            options: [OPTION.noise, OPTION.bystanders],
          },
          {
            name: bi('СЛР с дефибриллятором', 'CPR with a defibrillator'),
            description: bi(
              'Найти АНД, наложить электроды, следовать голосовым подсказкам.',
              'Find the AED, attach the pads, follow the voice prompts.',
            ),
            maxTasks: 6,
            options: [OPTION.shockTimeLimit],
          },
        ],
      },
      {
        name: bi('Остановка кровотечения', 'Stopping bleeding'),
        description: bi(
          'Прямое давление, давящая повязка, кровоостанавливающий жгут.',
          'Direct pressure, a pressure bandage, a tourniquet.',
        ),
        levels: [
          {
            name: bi('Порез кисти', 'Cut hand'),
            description: bi(
              'Остановить кровотечение давящей повязкой.',
              'Stop the bleeding with a pressure bandage.',
            ),
            maxTasks: 3,
            options: [OPTION.bystanders],
          },
          {
            name: bi('Артериальное кровотечение', 'Arterial bleeding'),
            description: bi(
              'Наложить жгут выше раны и записать время.',
              'Apply a tourniquet above the wound and note the time.',
            ),
            maxTasks: 4,
            options: [OPTION.nightTorch, OPTION.rainOutdoors],
          },
        ],
      },
    ],
  },
  {
    key: 'forklift',
    name: bi('Управление погрузчиком', 'Forklift Operation'),
    description: bi(
      'Вилочный погрузчик: осмотр перед сменой, загрузка фуры, пешеходы в проходе.',
      'Counterbalance forklift: pre-shift check, loading a truck, pedestrians in the aisle.',
    ),
    demoGrant: 'expired',
    partnerGrant: 'active',
    modules: [
      {
        name: bi('Осмотр перед сменой', 'Pre-shift inspection'),
        description: bi(
          'Обход погрузчика перед первым подъёмом груза.',
          'Walk-around check of the truck before the first lift.',
        ),
        levels: [
          {
            name: bi('Ежедневный чек-лист', 'Daily checklist'),
            description: bi(
              'Шины, вилы, цепи, гидравлика, звуковой сигнал и фары.',
              'Tyres, forks, chains, hydraulics, horn and lights.',
            ),
            maxTasks: 4,
            options: [OPTION.lowLight],
          },
          {
            name: bi('Аккумулятор и зарядка', 'Battery and charging'),
            description: bi(
              'Проверить электролит, подключить зарядное устройство, проветрить помещение.',
              'Check the electrolyte, connect the charger, ventilate the area.',
            ),
            maxTasks: 3,
            options: [],
          },
        ],
      },
      {
        name: bi('Погрузочная рампа', 'Loading dock'),
        description: bi(
          'Загрузить прицеп у рампы, не задев людей и стеллажи.',
          'Load a trailer at the dock without hitting people or racks.',
        ),
        levels: [
          {
            name: bi('Паллеты в прицеп', 'Pallet to trailer'),
            description: bi(
              'Перевезти шесть паллет со стеллажа в прицеп.',
              'Move six pallets from the rack into the trailer.',
            ),
            maxTasks: 5,
            options: [OPTION.rainDock, OPTION.nightFlood],
          },
          {
            name: bi('Пешеходы в проходе', 'Pedestrians in the aisle'),
            description: bi(
              'В проходе появились пешеходы: сбавить скорость, подать сигнал, уступить.',
              'Pedestrians appear in the aisle: slow down, sound the horn, give way.',
            ),
            maxTasks: 6,
            options: [OPTION.crowd, OPTION.truckTimeLimit, OPTION.nightFlood],
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
export const DEMO_SPARE_DEVICE: DeviceSpec = { name: 'Oculus Quest 2 №4', type: 'oculus' };

export const PARTNER_DEVICES: DeviceSpec[] = [
  { name: 'Dock-Pico-A', type: 'pico' },
  { name: 'Dock-Pico-B', type: 'pico' },
  { name: 'Training-Quest', type: 'quest' },
];
