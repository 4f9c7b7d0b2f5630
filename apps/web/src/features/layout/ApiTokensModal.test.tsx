import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ApiTokensModal } from './ApiTokensModal';

const UI_TIMEOUT = 60_000;

const existing = {
  id: '6f1c1f44-6d2c-4c5e-9a43-5d0f0a8a2b11',
  name: 'Nightly export',
  created_at: '2026-11-01T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
};

describe('the account’s API tokens', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => notifications.clean());

  it(
    'lists the tokens, makes one with a name and shows its secret once, revokes after asking',
    async () => {
      const user = userEvent.setup({ delay: null });
      let tokens = [existing];
      const calls = mockFetch({
        'GET /v1/me/api-tokens': () => ({ api_tokens: tokens }),
        'POST /v1/me/api-tokens': ({ body }) => {
          const made = {
            ...existing,
            id: 'a3a0b8de-16b2-4f0f-8a55-0f0c6c0e0d01',
            name: (body as { name: string }).name,
          };
          tokens = [made, ...tokens];
          return { status: 201, body: { ...made, token: 'secret-shown-once' } };
        },
        [`DELETE /v1/me/api-tokens/${existing.id}`]: () => {
          tokens = tokens.filter((token) => token.id !== existing.id);
          return { ok: true };
        },
      });
      renderWithProviders(<ApiTokensModal opened onClose={vi.fn()} />);
      const dialog = screen.getByRole('dialog', { name: 'API tokens' });
      expect(await within(dialog).findByText('Nightly export')).toBeInTheDocument();
      expect(within(dialog).getByText('Last used: never')).toBeInTheDocument();
      expect(within(dialog).getByText('Ends: when revoked')).toBeInTheDocument();

      // A name is needed.
      await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
      expect(await within(dialog).findByText('Give the token a name')).toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/^Name/), 'Deploy script');
      await user.selectOptions(within(dialog).getByLabelText('Ends'), 'Never (until revoked)');
      await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
      expect(await within(dialog).findByTestId('api-token-secret')).toHaveTextContent(
        'secret-shown-once',
      );
      expect(calls.filter((call) => call.method === 'POST')[0]?.body).toEqual({
        name: 'Deploy script',
      });
      expect(within(dialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Done' }));
      expect(within(dialog).queryByTestId('api-token-secret')).not.toBeInTheDocument();
      expect(await within(dialog).findByText('Deploy script')).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Revoke Nightly export' }));
      const confirm = await screen.findByRole('dialog', { name: 'Revoke the token?' });
      await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
      expect(await screen.findByText('Token “Nightly export” revoked')).toBeInTheDocument();
      await waitFor(() =>
        expect(within(dialog).queryByText('Nightly export')).not.toBeInTheDocument(),
      );
    },
    UI_TIMEOUT,
  );
});
