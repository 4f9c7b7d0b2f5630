import { afterAll, describe, expect, it } from 'vitest';
import { taskTitle } from '../components/TaskStrip';
import i18n, { setLanguage } from './index';

/**
 * What a first look shows in each language (issue 27): the product's name in the tab and on the
 * page, and a task told only by its number and key never carries an untranslated title.
 */
describe('the console in each language', () => {
  afterAll(() => setLanguage('ru'));

  it('names the product in the document title, and follows a change of language', async () => {
    setLanguage('ru');
    await i18n.changeLanguage('ru');
    expect(document.title).toBe('Консоль VR-тренировок');
    expect(document.documentElement.lang).toBe('ru');
    setLanguage('en');
    await i18n.changeLanguage('en');
    expect(document.title).toBe('VR Training Console');
    expect(document.documentElement.lang).toBe('en');
  });

  it('titles a task by its number alone when the headset gave no name, whatever its key', async () => {
    await i18n.changeLanguage('ru');
    const t = i18n.getFixedT('ru');
    const reported = { name: null, key: 'task-3' };
    expect(taskTitle(t, 3, reported)).toBe('Задание 3');
    expect(taskTitle(t, 2, { name: 'Огнетушитель' })).toBe('Задание 2: Огнетушитель');
    expect(taskTitle(i18n.getFixedT('en'), 3, { name: null })).toBe('Task 3');
  });
});
