import { describe, expect, it } from 'vitest';
import i18n from './index';
import { nestQuotes } from './quotes';

describe('nested quotes', () => {
  it('writes a quote inside a quote as „…“', () => {
    expect(nestQuotes('Удалить «ООО «Альфа»»?')).toBe('Удалить «ООО „Альфа“»?');
    expect(nestQuotes('«a «b «c»» d»')).toBe('«a „b „c““ d»');
  });

  it('leaves quotes that do not nest, and stray closing marks, as they are', () => {
    expect(nestQuotes('«Контент» и «Шлемы»')).toBe('«Контент» и «Шлемы»');
    expect(nestQuotes('a » b')).toBe('a » b');
  });

  it('applies to every translated text with a quoted name', async () => {
    await i18n.changeLanguage('ru');
    await i18n.loadNamespaces('adminOrganizations');
    expect(i18n.t('adminOrganizations:deleteConfirm', { name: 'ООО «Альфа»' })).toBe(
      'Удалить «ООО „Альфа“»? Это действие нельзя отменить.',
    );
  });
});
