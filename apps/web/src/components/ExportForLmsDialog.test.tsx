import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireAuth } from '../auth/guards';
import { mockFetch, renderWithProviders, staffAccount } from '../test/render';
import { ExportForLmsButton } from './ExportForLmsDialog';

const LEVEL = '00000000-0000-4000-8000-0000000000f1';
const QUALIFICATION = '00000000-0000-4000-8000-0000000000f2';

/** The query strings of the export requests made. */
const exports = (calls: Array<{ method: string; url: string }>) =>
  calls
    .filter((call) => call.method === 'POST' && call.url.startsWith('/v1/lms/packages'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

const zipRoute = () =>
  new Response(new Uint8Array([0x50, 0x4b, 0x05, 0x06]), {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="scorm-2004-intro.zip"',
    },
  });

describe('Export for LMS', () => {
  let saved: string | undefined;
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    saved = undefined;
    URL.createObjectURL = vi.fn(() => 'blob:zip');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved = this.download;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('downloads the chosen SCORM version of a level and closes', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({ 'GET /v1/me': staffAccount, 'POST /v1/lms/packages': zipRoute });
    renderWithProviders(
      <RequireAuth enrolNow={null}>
        <ExportForLmsButton target={{ level_id: LEVEL }} name="Intro" />
      </RequireAuth>,
    );
    await user.click(await screen.findByRole('button', { name: 'Export for LMS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export for LMS: Intro' });
    await user.click(screen.getByRole('radio', { name: 'SCORM 2004 (4th edition)' }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Package downloaded.')).toBeInTheDocument();
    expect(exports(calls)).toEqual([{ level_id: LEVEL, scorm_version: '2004' }]);
    expect(saved).toBe('scorm-2004-intro.zip');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('exports a qualification the same way (its first level not yet passed)', async () => {
    const user = userEvent.setup();
    const calls = mockFetch({ 'GET /v1/me': staffAccount, 'POST /v1/lms/packages': zipRoute });
    renderWithProviders(
      <RequireAuth enrolNow={null}>
        <ExportForLmsButton target={{ qualification_id: QUALIFICATION }} name="Fire warden" />
      </RequireAuth>,
    );
    await user.click(await screen.findByRole('button', { name: 'Export for LMS' }));
    await screen.findByRole('dialog', { name: 'Export for LMS: Fire warden' });
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() =>
      expect(exports(calls)).toEqual([{ qualification_id: QUALIFICATION, scorm_version: '1.2' }]),
    );
  });

  it('is not offered to an auditor', async () => {
    mockFetch({ 'GET /v1/me': { ...staffAccount, role: 'auditor' } });
    renderWithProviders(
      <RequireAuth enrolNow={null}>
        <p>signed in</p>
        <ExportForLmsButton target={{ level_id: LEVEL }} name="Intro" />
      </RequireAuth>,
    );
    expect(await screen.findByText('signed in')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export for LMS' })).toBeNull();
  });
});
