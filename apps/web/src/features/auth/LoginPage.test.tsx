import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { mockFetch, renderWithProviders, staffAccount } from '../../test/render';
import { LoginPage } from './LoginPage';
import { goTo } from './single-sign-on';

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

  it('sends an organisation that enforces single sign-on to its provider', async () => {
    const leave = vi.spyOn(goTo, 'href').mockImplementation(() => undefined);
    mockFetch({
      'GET /v1/me': signedOut,
      'POST /v1/auth/login': {
        status: 403,
        body: { error: 'sso_required', message: 'Sign in with single sign-on' },
      },
    });
    renderWithProviders(<LoginPage />, { route: '/login?next=%2Fsessions' });
    await userEvent.type(await screen.findByLabelText('Email'), 'kim@strict.example');
    await userEvent.type(screen.getByLabelText('Password'), 'any-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() =>
      expect(leave).toHaveBeenCalledWith(
        '/v1/auth/sso/start?email=kim%40strict.example&return_to=%2Fsessions',
      ),
    );
    leave.mockClear();
    // The page is left before the refusal's state is drawn: the button comes a render later.
    const again = await screen.findByRole(
      'button',
      { name: 'Continue with single sign-on' },
      { timeout: 5_000 },
    );
    await userEvent.click(again);
    expect(leave).toHaveBeenCalledTimes(1);
    leave.mockRestore();
  });

  it("keeps what a refusal taught when the domain's answer arrives after it", async () => {
    const leave = vi.spyOn(goTo, 'href').mockImplementation(() => undefined);
    // The domain's answer is held until the refusal has been drawn, as on a slow network.
    let answerDomain: ((answer: Response) => void) | undefined;
    mockFetch({
      'GET /v1/me': signedOut,
      'GET /v1/auth/sso/discover': () =>
        new Promise<Response>((resolve) => {
          answerDomain = resolve;
        }),
      'POST /v1/auth/login': {
        status: 403,
        body: { error: 'sso_required', message: 'Sign in with single sign-on' },
      },
    });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'kim@strict.example');
    await userEvent.type(screen.getByLabelText('Password'), 'any-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('button', { name: 'Continue with single sign-on' });
    await vi.waitFor(() => expect(answerDomain).toBeDefined());
    // The domain's question failed (rate-limited, say): it knows nothing, and must not unteach.
    await act(async () => {
      answerDomain!(new Response('{}', { status: 429 }));
      // Pacing: one turn of the event loop, in which the late answer is applied (or ignored).
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(
      screen.getByRole('button', { name: 'Continue with single sign-on' }),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    leave.mockRestore();
  });

  it('offers single sign-on only for a domain that has it, asking with the email first', async () => {
    const leave = vi.spyOn(goTo, 'href').mockImplementation(() => undefined);
    const calls = mockFetch({
      'GET /v1/me': signedOut,
      'GET /v1/auth/sso/discover': ({ url }: { url: URL }) => ({
        sso: url.searchParams.get('email')?.endsWith('@sso.example') ?? false,
        enforced: false,
      }),
    });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@plain.example');
    await vi.waitFor(() =>
      expect(calls.some((call) => call.url.includes('ann%40plain.example'))).toBe(true),
    );
    expect(screen.queryByRole('button', { name: 'Continue with single sign-on' })).toBeNull();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ann@sso.example');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Continue with single sign-on' }),
    );
    expect(leave).toHaveBeenCalledWith(
      '/v1/auth/sso/start?email=ann%40sso.example&return_to=%2Fvr-users',
    );
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    leave.mockRestore();
  });

  it('asks no password of an organisation that enforces single sign-on', async () => {
    const leave = vi.spyOn(goTo, 'href').mockImplementation(() => undefined);
    const calls = mockFetch({
      'GET /v1/me': signedOut,
      'GET /v1/auth/sso/discover': { sso: true, enforced: true },
    });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'kim@strict.example');
    expect(await screen.findByText(/no password is needed here/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue with single sign-on' }));
    expect(leave).toHaveBeenCalledWith(
      '/v1/auth/sso/start?email=kim%40strict.example&return_to=%2Fvr-users',
    );
    expect(calls.filter((call) => call.url === '/v1/auth/login')).toHaveLength(0);
    leave.mockRestore();
  });

  it('lets an exempt (break-glass) account of such an organisation sign in with its password', async () => {
    const leave = vi.spyOn(goTo, 'href').mockImplementation(() => undefined);
    const calls = mockFetch({
      'GET /v1/me': signedOut,
      'GET /v1/auth/sso/discover': { sso: true, enforced: true },
      'POST /v1/auth/login': {
        ...staffAccount,
        email: 'keeper@strict.example',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), 'keeper@strict.example');
    // As a person types: the organisation's answer is in before the password is.
    expect(await screen.findByText(/no password is needed here/)).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'An exempt account? Sign in with its password' }),
    );
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Continue with single sign-on' })).toBeVisible();
    await userEvent.keyboard('long-password-from-the-safe');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.url === '/v1/auth/login')).toHaveLength(1),
    );
    expect(leave).not.toHaveBeenCalled();
    leave.mockRestore();
  });

  it('says why a single sign-on failed, in the console’s words', async () => {
    mockFetch({ 'GET /v1/me': signedOut });
    renderWithProviders(<LoginPage />, { route: '/login?sso_error=no_account' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is no account for you here. Ask your administrator.',
    );
  });
});
