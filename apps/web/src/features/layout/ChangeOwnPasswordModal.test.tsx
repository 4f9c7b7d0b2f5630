import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { ChangeOwnPasswordModal } from './ChangeOwnPasswordModal';

/** These type into three fields: slow in jsdom on a busy machine. */
const UI_TIMEOUT = 60_000;

function renderDialog() {
  const onClose = vi.fn();
  renderWithProviders(<ChangeOwnPasswordModal opened onClose={onClose} />);
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Change password' }) };
}

const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label);
const posts = (calls: Array<{ method: string }>) => calls.filter((call) => call.method === 'POST');

describe('changing one’s own password', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => notifications.clean());

  it(
    'asks for the current password, a long enough new one and the same one twice before sending',
    async () => {
      const user = userEvent.setup({ delay: null });
      const calls = mockFetch({ 'POST /v1/auth/password': { ok: true } });
      const { dialog, onClose } = renderDialog();
      const submit = () =>
        user.click(within(dialog).getByRole('button', { name: 'Change password' }));

      await submit();
      expect(await within(dialog).findByText('Enter your current password')).toBeInTheDocument();
      expect(
        within(dialog).getByText('Password must be at least 8 characters'),
      ).toBeInTheDocument();
      expect(field(dialog, /^Current password/)).toHaveAccessibleDescription(
        'Enter your current password',
      );

      await user.type(field(dialog, /^Current password/), 'old-password');
      await user.type(field(dialog, /^New password/), 'lantern-ok');
      await user.type(field(dialog, /^Repeat new password/), 'lantern-no');
      await submit();
      expect(await within(dialog).findByText('Passwords do not match')).toBeInTheDocument();
      expect(within(dialog).queryByText('Enter your current password')).not.toBeInTheDocument();
      expect(posts(calls)).toEqual([]);

      await user.clear(field(dialog, /^Repeat new password/));
      await user.type(field(dialog, /^Repeat new password/), 'lantern-ok');
      await submit();
      expect(await screen.findByText('Password changed')).toBeInTheDocument();
      expect(posts(calls)).toEqual([
        {
          method: 'POST',
          url: '/v1/auth/password',
          body: { current_password: 'old-password', new_password: 'lantern-ok' },
        },
      ]);
      expect(onClose).toHaveBeenCalled();
    },
    UI_TIMEOUT,
  );

  it(
    'says beside the field that the current password is wrong, and stays open',
    async () => {
      const user = userEvent.setup({ delay: null });
      mockFetch({
        'POST /v1/auth/password': {
          status: 403,
          body: { error: 'wrong_current_password', message: 'The current password is wrong' },
        },
      });
      const { dialog, onClose } = renderDialog();
      await user.type(field(dialog, /^Current password/), 'not-it');
      await user.type(field(dialog, /^New password/), 'lantern-ok');
      await user.type(field(dialog, /^Repeat new password/), 'lantern-ok');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));

      // Said with the field, so a screen reader reads it there too.
      await waitFor(() =>
        expect(field(dialog, /^Current password/)).toHaveAccessibleDescription(
          'Current password is wrong',
        ),
      );
      expect(screen.queryByText('Password changed')).not.toBeInTheDocument();
      expect(onClose).not.toHaveBeenCalled();
    },
    UI_TIMEOUT,
  );

  it(
    'words any other refusal, such as too many attempts, in a toast',
    async () => {
      const user = userEvent.setup({ delay: null });
      mockFetch({
        'POST /v1/auth/password': {
          status: 429,
          body: {
            error: 'rate_limited',
            message: 'Too many attempts. Try again in 15 minute(s).',
            details: { retry_after_seconds: 900 },
          },
        },
      });
      const { dialog, onClose } = renderDialog();
      await user.type(field(dialog, /^Current password/), 'guess');
      await user.type(field(dialog, /^New password/), 'lantern-ok');
      await user.type(field(dialog, /^Repeat new password/), 'lantern-ok');
      await user.click(within(dialog).getByRole('button', { name: 'Change password' }));

      expect(await screen.findByText(/15 minutes/)).toBeInTheDocument();
      expect(field(dialog, /^Current password/)).not.toHaveAccessibleDescription();
      expect(onClose).not.toHaveBeenCalled();
    },
    UI_TIMEOUT,
  );

  it('speaks Russian', async () => {
    await i18n.changeLanguage('ru');
    try {
      mockFetch({});
      renderWithProviders(<ChangeOwnPasswordModal opened onClose={() => {}} />);
      const dialog = screen.getByRole('dialog', { name: 'Смена пароля' });
      expect(field(dialog, /^Текущий пароль/)).toBeInTheDocument();
      expect(field(dialog, /^Новый пароль/)).toBeInTheDocument();
      expect(field(dialog, /^Повторите новый пароль/)).toBeInTheDocument();
      expect(
        within(dialog).getByText('Не менее 8 символов; надёжнее фраза от 15 символов'),
      ).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
