import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLanguage, type Language } from '../i18n';

export function LanguageSwitcher({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { i18n, t } = useTranslation();
  return (
    <SegmentedControl
      size={size}
      aria-label={t('common:language')}
      value={i18n.language === 'en' ? 'en' : 'ru'}
      onChange={(value) => setLanguage(value as Language)}
      data={[
        { value: 'ru', label: 'RU' },
        { value: 'en', label: 'EN' },
      ]}
    />
  );
}
