import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ScimTokenPanel } from './ScimTokenPanel';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const URL_PATH = `/v1/admin/organizations/${ORG}/scim-token`;
const BASE_URL = 'https://console.example.com/scim/v2';
const UI_TIMEOUT = 60_000;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('ScimTokenPanel', () => {
  it(
    'issues a token, shows it once with the tenant URL, and then the token’s state',
    async () => {
      let issued = false;
      const calls = mockFetch({
        [`GET ${URL_PATH}`]: () =>
          issued
            ? {
                exists: true,
                name: 'Entra ID',
                created_at: '2026-11-29T09:00:00.000Z',
                last_used_at: null,
                base_url: BASE_URL,
              }
            : {
                exists: false,
                name: null,
                created_at: null,
                last_used_at: null,
                base_url: BASE_URL,
              },
        [`POST ${URL_PATH}`]: () => {
          issued = true;
          return {
            status: 201,
            body: {
              token: 'the-secret-token-shown-once',
              name: 'Entra ID',
              created_at: '2026-11-29T09:00:00.000Z',
              base_url: BASE_URL,
            },
          };
        },
      });
      renderWithProviders(<ScimTokenPanel organizationId={ORG} />);
      expect(await screen.findByText(i18n.t('adminOrganizations:scim.none'))).toBeInTheDocument();
      expect(screen.getByTestId('scim-url')).toHaveTextContent(BASE_URL);

      await userEvent.type(
        screen.getByLabelText(i18n.t('adminOrganizations:scim.name')),
        'Entra ID',
      );
      await userEvent.click(
        screen.getByRole('button', { name: i18n.t('adminOrganizations:scim.issue') }),
      );
      expect(await screen.findByTestId('scim-token')).toHaveTextContent(
        'the-secret-token-shown-once',
      );
      await waitFor(() => expect(screen.getByTestId('scim-state')).toHaveTextContent('Entra ID'));
      expect(
        screen.getByRole('button', { name: i18n.t('adminOrganizations:scim.rotate') }),
      ).toBeVisible();
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Entra ID' });
    },
    UI_TIMEOUT,
  );
});
