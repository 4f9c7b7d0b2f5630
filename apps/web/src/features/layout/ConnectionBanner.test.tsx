import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { noteServerAnswer } from '../../api/connection';
import { LiveRefreshNote } from '../../components/LiveIndicator';
import { renderWithProviders } from '../../test/render';
import { ConnectionBanner } from './ConnectionBanner';

describe('without the server', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('says so above the screen and under the lists, and stops saying so once it answers', () => {
    renderWithProviders(
      <>
        <ConnectionBanner />
        <LiveRefreshNote />
      </>,
    );
    expect(screen.queryByTestId('connection-banner')).not.toBeInTheDocument();
    act(() => noteServerAnswer(200, Date.parse('2026-05-10T12:00:00Z')));
    act(() => noteServerAnswer(undefined));
    expect(screen.getByTestId('connection-banner')).toHaveTextContent(
      'No connection to the server',
    );
    expect(screen.getByTestId('live-refresh-note')).toHaveAttribute('data-stale', 'true');
    expect(screen.getByTestId('live-refresh-note')).toHaveTextContent(
      /Not updated for .*: no connection to the server/,
    );
    act(() => noteServerAnswer(200));
    expect(screen.queryByTestId('connection-banner')).not.toBeInTheDocument();
    expect(screen.getByTestId('live-refresh-note')).not.toHaveAttribute('data-stale');
  });
});
