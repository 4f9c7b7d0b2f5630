import { ERROR_CODES } from '@vrtc/contract';
import i18n from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { KNOWN_ERROR_CODES } from './error-codes';
import { allDictionaries } from '../i18n';
import { errorText } from './error-text';

const fail = (status: number, error: string, details?: Record<string, unknown>, message = 'X') =>
  new ApiError(status, { error, message, ...(details ? { details } : {}) });

const { ru, en } = await allDictionaries();

/** The code's text in the dictionary: a plain key, or the plural forms of one. */
function hasText(dictionary: Record<string, unknown> | undefined, code: string) {
  const codes = (dictionary?.codes ?? {}) as Record<string, unknown>;
  return (
    typeof codes[code] === 'string' ||
    Object.keys(codes).some((key) => key.startsWith(`${code}_`) && typeof codes[key] === 'string')
  );
}

describe('error codes', () => {
  it('knows every code of the contract, and no other', () => {
    expect([...KNOWN_ERROR_CODES].sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(ERROR_CODES)('has a Russian and an English text for %s', (code) => {
    expect(hasText(ru.errors, code), `ru errors:codes.${code}`).toBe(true);
    expect(hasText(en.errors, code), `en errors:codes.${code}`).toBe(true);
  });

  it('has no text for a code the contract does not have', () => {
    for (const dictionary of [ru.errors, en.errors]) {
      const stems = Object.keys((dictionary?.codes ?? {}) as object).map((key) =>
        key.replace(/_(one|few|many|other)$/, ''),
      );
      expect(stems.filter((stem) => !(ERROR_CODES as string[]).includes(stem))).toEqual([]);
    }
  });
});

describe('errorText', () => {
  afterAll(() => i18n.changeLanguage('en'));

  describe('in Russian', () => {
    beforeAll(() => i18n.changeLanguage('ru'));

    it('words a known code in Russian, never with the server text', () => {
      const error = fail(401, 'invalid_credentials', undefined, 'Invalid email or password');
      expect(errorText(error, 'fallback')).toBe('Неверная электронная почта или пароль.');
    });

    it('fills in the values of details', () => {
      expect(errorText(fail(409, 'vr_user_has_sessions', { name: 'Анна', count: 3 }), '')).toBe(
        'Нельзя удалить Анна: у пользователя 3 сессии. VR-пользователей с историей сессий удалять нельзя.',
      );
      expect(
        errorText(
          fail(409, 'organization_in_use', {
            name: 'Nordic',
            accounts: 1,
            vr_users: 0,
            devices: 2,
            sessions: 5,
          }),
          '',
        ),
      ).toBe(
        'Нельзя удалить «Nordic»: в организации есть 1 учётная запись, 2 шлема, 5 сессий. Деактивируйте её вместо удаления.',
      );
      expect(errorText(fail(409, 'level_number_taken', { level_number: 2 }), '')).toBe(
        'В этом модуле уже есть уровень с номером 2. Выберите другой номер.',
      );
      expect(errorText(fail(409, 'quota_exceeded', { resource: 'devices', limit: 10 }), '')).toBe(
        'Достигнут лимит организации: не более 10 шлемов.',
      );
      expect(errorText(fail(429, 'rate_limited', { retry_after_seconds: 290 }), '')).toBe(
        'Слишком много попыток. Повторите через 5 минут.',
      );
      expect(errorText(fail(409, 'session_not_active', { status: 'cancelled' }), '')).toBe(
        'Сессия уже закончилась (отменена).',
      );
      expect(errorText(fail(413, 'payload_too_large', { limit_bytes: 2 * 1024 ** 3 }), '')).toBe(
        'Файл слишком большой: допустимо не более 2 ГБ.',
      );
    });

    it('names the field and the rule of a validation error', () => {
      const validation = (details: Record<string, unknown>) =>
        errorText(fail(400, 'validation_error', details), '');
      expect(validation({ field: 'body.name', rule: 'required' })).toBe(
        'Заполните поле «Название».',
      );
      expect(validation({ field: 'body.password', rule: 'minLength', limit: 8 })).toBe(
        'Поле «Пароль»: не менее 8 символов.',
      );
      expect(validation({ field: 'body.level_number', rule: 'minimum', limit: 1 })).toBe(
        'Поле «Номер уровня»: значение должно быть не меньше 1.',
      );
      expect(
        validation({ field: 'body.movement_type', rule: 'enum', allowed: 'slide, teleport' }),
      ).toBe('Поле «Способ перемещения»: допустимые значения — slide, teleport.');
      expect(validation({ field: 'body.gadget', rule: 'whatever' })).toBe(
        'Проверьте поле «gadget».',
      );
      expect(validation({})).toBe('Проверьте введённые данные.');
    });

    it('falls back to the server text for an unknown code, and to the screen text without one', () => {
      expect(errorText(fail(418, 'teapot', undefined, 'I am a teapot'), 'Ошибка')).toBe(
        'I am a teapot',
      );
      expect(errorText(new ApiError(502, undefined), 'Произошла ошибка')).toBe('Произошла ошибка');
      expect(errorText(new TypeError('Failed to fetch'), 'Произошла ошибка')).toBe(
        'Произошла ошибка',
      );
    });
  });

  describe('in English', () => {
    beforeAll(() => i18n.changeLanguage('en'));

    it('uses the English plural forms and texts', () => {
      expect(errorText(fail(409, 'vr_user_has_sessions', { name: 'Ann', count: 1 }), '')).toBe(
        'Cannot delete Ann - they have 1 session. VR users with session history cannot be deleted.',
      );
      expect(errorText(fail(409, 'device_busy'), '')).toBe(
        'Another session is already running on this headset.',
      );
    });
  });
});
