import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { mockFetch, renderWithProviders } from '../../test/render';
import { LoginPage } from './LoginPage';

const signedOut = { status: 401, body: { error: 'unauthorized', message: 'x' } };

describe('LoginPage', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says beside each empty field what is missing, and asks the server nothing', async () => {
    const calls = mockFetch({ 'GET /v1/me': signedOut });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your email.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/v1/auth/login')).toHaveLength(0);
  });

  it('refuses a text that is no email address before sending it', async () => {
    const calls = mockFetch({ 'GET /v1/me': signedOut });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'staff.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('This is not an email address.')).toBeInTheDocument();
    expect(screen.queryByText('Enter your password.')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/v1/auth/login')).toHaveLength(0);
  });

  it('sends a filled form, and shows the server refusal in the console words', async () => {
    const calls = mockFetch({
      'GET /v1/me': signedOut,
      'POST /v1/auth/login': {
        status: 401,
        body: { error: 'invalid_credentials', message: 'Invalid email or password' },
      },
    });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), ' staff@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/v1/auth/login')).toHaveLength(1);
  });
});
