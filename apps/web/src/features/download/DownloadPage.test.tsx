import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { notifications } from '@mantine/notifications';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../test/render';
import { DownloadPage } from './DownloadPage';

const links = {
  oculus_url: 'http://localhost/v1/vr-app/files/oculus?expires=1778400000&signature=abc',
  pico_url: null,
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

  it('says the link is not available when there is no build, and retries on request', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /v1/vr-app/download': {
        status: 404,
        body: { error: 'not_found', message: 'No VR app build has been uploaded yet' },
      },
    });
    renderWithProviders(<DownloadPage />);
    expect(
      await screen.findByText('Download link is not available at the moment.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download for Oculus' })).not.toBeInTheDocument();
    // Requirements are shown either way.
    expect(screen.getByText('Android 10.0 or higher')).toBeInTheDocument();

    mockFetch({ 'GET /v1/vr-app/download': links });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    const oculus = await screen.findByRole('link', { name: 'Download for Oculus' });
    expect(oculus).toHaveAttribute('href', links.oculus_url);
    expect(
      screen.queryByText('Download link is not available at the moment.'),
    ).not.toBeInTheDocument();
  });

  it('offers the builds that exist, the expiry of the links and the direct URLs', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /v1/vr-app/download': links });
    renderWithProviders(<DownloadPage />);
    const oculus = await screen.findByRole('link', { name: 'Download for Oculus' });
    expect(screen.getByRole('button', { name: 'Download for Pico' })).toBeDisabled();
    expect(screen.getByText('Download links expire in 60 minutes.')).toBeInTheDocument();
    expect(screen.getByLabelText('Oculus build')).toHaveValue(links.oculus_url);
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
});
