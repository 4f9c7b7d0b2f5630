import { screen } from '@testing-library/react';
import type { Certificate } from '@vrtc/contract';
import i18n from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { VerifyPage } from './VerifyPage';

const CODE = 'Zx9_'.repeat(10) + 'abc';
const certificate: Certificate = {
  holder_name: 'Anna Ivanova',
  qualification_name: 'Погрузчик',
  qualification_name_en: 'Forklift',
  organization_name: 'Plant North',
  valid_from: '2026-03-05T10:00:00.000Z',
  valid_until: null,
  status: 'superseded',
};

function renderAt(code: string) {
  mockFetch({
    'GET /v1/me': { status: 401, body: { error: 'unauthorized', message: 'Sign in' } },
    [`GET /v1/certificates/${CODE}`]: certificate,
  });
  renderWithProviders(
    <Routes>
      <Route path="/verify/:code" element={<VerifyPage />} />
    </Routes>,
    { route: `/verify/${code}` },
  );
}

afterEach(async () => {
  await i18n.changeLanguage('ru');
});

describe('VerifyPage', () => {
  it('shows the holder, qualification, organisation, dates and status', async () => {
    await i18n.changeLanguage('en');
    renderAt(CODE);
    const card = await screen.findByTestId('verify-certificate');
    expect(card).toHaveTextContent('Forklift');
    expect(card).toHaveTextContent('Anna Ivanova');
    expect(card).toHaveTextContent('Plant North');
    expect(card).toHaveTextContent('05/03/2026');
    expect(card).toHaveTextContent('Does not lapse');
    expect(screen.getByText('Superseded')).toBeInTheDocument();
  });

  it('says plainly that an unknown code is not found, in Russian', async () => {
    renderAt('unknown-code');
    expect(await screen.findByText('Сертификат не найден')).toBeInTheDocument();
  });
});
