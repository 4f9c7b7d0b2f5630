import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { DownloadPage } from './DownloadPage';

const links = {
  oculus_url: 'http://localhost/v1/vr-app/files/oculus?expires=1778400000&signature=abc',
  pico_url: null,
  builds: [
    {
      platform: 'oculus' as const,
      version: '1.4.2' as string | null,
      size_bytes: 52_000_000,
      uploaded_at: '2026-05-09T08:00:00.000Z',
    },
  ],
  generated_at: '2026-05-10T12:00:00.000Z',
  expires_in_seconds: 3600,
};

describe('download screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  // Toasts live in a module-wide store (at most 5 shown): each test starts without old ones.
  beforeEach(() => {
    notifications.clean();
  });

  it('says no build is uploaded yet, from an answer with no links, with no retry that cannot help', async () => {
    const calls = mockFetch({
      // The console asks who is signed in (its cookie) when it starts.
      'GET /v1/me': {
        id: '00000000-0000-4000-8000-000000000003',
        email: 'staff@example.com',
        role: 'client',
        organization_id: '00000000-0000-4000-8000-000000000002',
        organization_name: 'Acme',
      },
      'GET /v1/vr-app/download': { ...links, oculus_url: null, pico_url: null, builds: [] },
    });
    renderWithProviders(<DownloadPage />);
    expect(
      await screen.findByText('No build of the VR app has been uploaded yet.'),
    ).toBeInTheDocument();
    // Each request answered: nothing fails in the browser's console.
    expect(calls.map((call) => call.url).sort()).toEqual([
      '/v1/auth/session',
      '/v1/vr-app/download',
    ]);
    expect(screen.queryByRole('link', { name: 'Download for Oculus' })).not.toBeInTheDocument();
    // Requirements are shown either way.
    expect(screen.getByText('Android 10.0 or higher')).toBeInTheDocument();

    // Asking again cannot upload a build: no Retry is offered.
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('says the link is not available, with the reason, when the server fails', async () => {
    mockFetch({
      'GET /v1/vr-app/download': {
        status: 500,
        body: { error: 'internal_error', message: 'boom' },
      },
    });
    renderWithProviders(<DownloadPage />);
    expect(await screen.findByRole('alert')).not.toHaveTextContent(
      'No build of the VR app has been uploaded yet.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('offers the builds that exist, the expiry of the links and the direct URLs', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /v1/vr-app/download': links });
    renderWithProviders(<DownloadPage />);
    const oculus = await screen.findByRole('link', { name: 'Download for Oculus' });
    expect(screen.getByRole('button', { name: 'Download for Pico' })).toBeDisabled();
    expect(screen.getByText('Download links expire in 60 minutes.')).toBeInTheDocument();
    expect(screen.getByLabelText('Oculus build')).toHaveValue(links.oculus_url);
    // What is installed: the build's version and size, for staff too.
    expect(screen.getByTestId('build-facts-oculus')).toHaveTextContent(
      /^version 1\.4\.2 · 49\.6 MB$/,
    );
    for (const requirement of [
      'Oculus Quest 2/3 or Pico 4',
      'Android 10.0 or higher',
      'At least 500MB free storage',
      'An active internet connection',
    ]) {
      expect(screen.getByText(requirement)).toBeInTheDocument();
    }

    oculus.addEventListener('click', (event) => event.preventDefault());
    await user.click(oculus);
    expect(await screen.findByText('Download started')).toBeInTheDocument();
  });

  it('shows an admin the builds on the server, with version, size and upload time', async () => {
    const admin = {
      id: '00000000-0000-4000-8000-000000000001',
      email: 'admin@example.com',
      role: 'admin' as const,
      organization_id: '00000000-0000-4000-8000-000000000002',
      organization_name: 'Platform',
    };
    mockFetch({
      'GET /v1/me': admin,
      'GET /v1/vr-app/download': links,
      'GET /v1/admin/vr-app/builds': {
        builds: [
          {
            platform: 'oculus',
            version: '1.4.2',
            size_bytes: 52_428_800,
            uploaded_at: '2026-05-10T12:00:00.000Z',
          },
        ],
      },
    });
    renderWithProviders(<DownloadPage />);
    const oculus = await screen.findByTestId('build-oculus');
    expect(await within(oculus).findByText('version 1.4.2')).toBeInTheDocument();
    expect(within(oculus).getByTestId('build-facts')).toHaveTextContent(/^50 MB · uploaded /);
    expect(within(oculus).getByRole('button', { name: 'Replace' })).toBeInTheDocument();
    const pico = screen.getByTestId('build-pico');
    expect(within(pico).getByText('no build')).toBeInTheDocument();
    // Nothing is sent without a file.
    await userEvent.setup().click(within(pico).getByRole('button', { name: 'Upload' }));
    expect(await within(pico).findByText('Choose an APK file')).toBeInTheDocument();
  });

  it('shows a client no build administration', async () => {
    mockFetch({ 'GET /v1/vr-app/download': links });
    renderWithProviders(<DownloadPage />);
    await screen.findByRole('link', { name: 'Download for Oculus' });
    expect(screen.queryByTestId('app-builds-admin')).not.toBeInTheDocument();
  });

  it('points app developers at the Unity SDK and shows its guide, bundled with the console', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /v1/vr-app/download': links });
    renderWithProviders(<DownloadPage />);
    expect(await screen.findByText('For app developers: Unity SDK')).toBeInTheDocument();
    expect(screen.getByText('sdk/unity')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Read the SDK guide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unity SDK guide' });
    // The package's own README: install, enrol, the loop, what queued reports promise, resume.
    expect(await within(dialog).findByText(/await client\.TryEnrollAsync\(/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Reports: what "queued" promises/)).toBeInTheDocument();
    expect(within(dialog).getByText(/After a crash or a restart: resume/)).toBeInTheDocument();
  });
});
