import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompliancePage as Page, ComplianceRow, Me, Qualification } from '@vrtc/contract';
import i18n from 'i18next';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeStoredUser } from '../../auth/storage';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { CompliancePage } from './CompliancePage';
import { QualificationsPage } from './QualificationsPage';
import { endOfDay } from './compliance-state';
import { foldMatrix } from './matrix';

const ORG = '00000000-0000-4000-8000-00000000000a';
const FORKLIFT = '00000000-0000-4000-8000-0000000000f1';
const HEIGHT = '00000000-0000-4000-8000-0000000000f2';
const ANNA = '00000000-0000-4000-8000-0000000000a1';
const BORIS = '00000000-0000-4000-8000-0000000000a2';

const staff: Me = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'anna@plant.example',
  role: 'client',
  organization_id: ORG,
  organization_name: 'Plant',
};
const auditor: Me = { ...staff, id: '00000000-0000-4000-8000-000000000003', role: 'auditor' };

function row(overrides: Partial<ComplianceRow>): ComplianceRow {
  return {
    vr_user_id: ANNA,
    vr_user_name: 'Anna',
    qualification_id: FORKLIFT,
    qualification_name: 'Forklift',
    status: 'qualified',
    earned_at: '2026-03-05T10:00:00.000Z',
    valid_until: '2027-01-10T10:00:00.000Z',
    due_at: null,
    overdue: false,
    certificate_code: 'c'.repeat(43),
    ...overrides,
  };
}

const rows: ComplianceRow[] = [
  row({}),
  row({
    qualification_id: HEIGHT,
    qualification_name: 'Height',
    status: 'expired',
    valid_until: '2026-01-01T00:00:00.000Z',
  }),
  row({
    vr_user_id: BORIS,
    vr_user_name: 'Boris',
    status: 'pending_evaluation',
    earned_at: null,
    valid_until: null,
    due_at: '2026-03-01T00:00:00.000Z',
    overdue: true,
    certificate_code: null,
  }),
];

const qualification: Qualification = {
  id: FORKLIFT,
  name: 'Погрузчик',
  name_en: 'Forklift',
  description: null,
  level_ids: ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'],
  validity_days: 365,
  expiring_within_days: 30,
  evaluation_required: true,
  assigned_count: 2,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function complianceAnswer({ url }: FakeRequest): Page {
  const status = url.searchParams.get('status');
  const matched = rows.filter((r) => !status || r.status === status);
  return {
    rows: matched,
    totals: {
      qualified: 1,
      expiring: 0,
      expired: 1,
      pending_evaluation: 1,
      not_qualified: 0,
      revoked: 0,
      overdue: 1,
    },
    as_of: url.searchParams.get('as_of') ?? '2026-05-20T12:00:00.000Z',
    total: matched.length,
    limit: 200,
    offset: 0,
  };
}

function fakeServer(user: Me = staff) {
  writeStoredUser(user);
  return mockFetch({
    'GET /v1/me': user,
    'GET /v1/compliance': complianceAnswer,
    'GET /v1/qualifications': {
      qualifications: [qualification],
      total: 1,
      limit: 500,
      offset: 0,
    },
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

afterEach(async () => {
  await i18n.changeLanguage('ru');
});

describe('foldMatrix', () => {
  it('folds rows into a line per trainee and a column per qualification, by name', () => {
    const matrix = foldMatrix(rows);
    expect(matrix.qualifications.map((q) => q.name)).toEqual(['Forklift', 'Height']);
    expect(matrix.lines.map((line) => line.vrUserName)).toEqual(['Anna', 'Boris']);
    expect(Object.keys(matrix.lines[1]!.cells)).toEqual([FORKLIFT]);
  });
});

describe('endOfDay', () => {
  it('is the last millisecond of the local day', () => {
    const end = new Date(endOfDay('2026-03-01'));
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours()]).toEqual([
      2026, 2, 1, 23,
    ]);
    expect(end.getMilliseconds()).toBe(999);
  });
});

describe('CompliancePage', () => {
  it('shows the matrix with statuses in words, the overdue mark and a dash where not assigned', async () => {
    await i18n.changeLanguage('en');
    fakeServer();
    renderWithProviders(<CompliancePage />, { route: '/compliance' });
    const matrix = await screen.findByTestId('compliance-matrix');
    const boris = within(matrix).getByRole('row', { name: /Boris/ });
    expect(within(boris).getByText('Pending evaluation')).toBeInTheDocument();
    expect(within(boris).getByText('Overdue')).toBeInTheDocument();
    expect(within(boris).getByText('Not assigned')).toBeInTheDocument();
    const anna = within(matrix).getByRole('row', { name: /Anna/ });
    expect(within(anna).getByText('Qualified')).toBeInTheDocument();
    expect(within(anna).getByText('Expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Overdue: 1' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('narrows to a status from its total, and keeps it in the URL', async () => {
    const calls = fakeServer();
    renderWithProviders(
      <>
        <CompliancePage />
        <Where />
      </>,
      { route: '/compliance' },
    );
    await screen.findByTestId('compliance-matrix');
    await userEvent.click(screen.getByRole('button', { name: 'Истекла: 1' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('status=expired'));
    await waitFor(() =>
      expect(calls.some((call) => call.url.includes('status=expired'))).toBe(true),
    );
    expect(screen.getByRole('button', { name: 'Истекла: 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('asks for the statuses at the end of the "as of" day in the URL', async () => {
    const calls = fakeServer();
    renderWithProviders(<CompliancePage />, { route: '/compliance?as_of=2026-03-01&overdue=true' });
    await screen.findByTestId('compliance-matrix');
    const asked = calls.find((call) => call.url.startsWith('/v1/compliance?'));
    const query = new URL(asked!.url, 'http://localhost').searchParams;
    expect(query.get('as_of')).toBe(endOfDay('2026-03-01'));
    expect(query.get('overdue')).toBe('true');
    expect(screen.getByTestId('compliance-as-of-text')).toHaveTextContent('01.03.2026');
  });

  it('downloads the CSV with the filters, the console language and its clock', async () => {
    await i18n.changeLanguage('en');
    fakeServer();
    const download = mockFetchExport();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithProviders(<CompliancePage />, { route: '/compliance?status=expired&q=Ann' });
    await screen.findByTestId('compliance-matrix');
    await userEvent.click(screen.getByTestId('compliance-export'));
    await waitFor(() => expect(download.url).toBeDefined());
    const query = new URL(download.url!, 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      status: 'expired',
      q: 'Ann',
      lang: 'en',
      utc_offset: String(-new Date().getTimezoneOffset() || 0),
    });
    await waitFor(() => expect(saved).toHaveBeenCalled());
    saved.mockRestore();
  });
});

/** Adds the export route to the fake server: it answers a CSV file and remembers what was asked. */
function mockFetchExport() {
  const seen: { url?: string } = {};
  const previous = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/v1/compliance/export')) {
      seen.url = url;
      return new Response('\uFEFFTrainee\r\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="compliance.csv"',
        },
      });
    }
    return previous(input, init);
  }) as typeof fetch;
  URL.createObjectURL = vi.fn(() => 'blob:compliance');
  URL.revokeObjectURL = vi.fn();
  return seen;
}

describe('QualificationsPage', () => {
  it('lists qualifications with their actions for staff', async () => {
    await i18n.changeLanguage('en');
    fakeServer();
    renderWithProviders(<QualificationsPage />, { route: '/compliance/qualifications' });
    const line = await screen.findByRole('row', { name: /Погрузчик/ });
    expect(within(line).getByText('365 days')).toBeInTheDocument();
    expect(within(line).getByText('2 levels')).toBeInTheDocument();
    expect(
      within(line).getByRole('button', { name: 'Assign “Погрузчик” to trainees' }),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add qualification' })).toBeVisible();
    // Into an LMS (issue 41): the qualification's SCORM package, from its row.
    await userEvent.click(within(line).getByRole('button', { name: 'Export for LMS: Погрузчик' }));
    // Mantine fades the dialog in: wait until the user can see it, not only until it exists.
    await waitFor(() =>
      expect(screen.getByRole('dialog', { name: 'Export for LMS: Погрузчик' })).toBeVisible(),
    );
  });

  it('shows an auditor no action it cannot take', async () => {
    await i18n.changeLanguage('en');
    fakeServer(auditor);
    renderWithProviders(<QualificationsPage />, { route: '/compliance/qualifications' });
    await screen.findByRole('row', { name: /Погрузчик/ });
    // The account is read from the stored sign-in first, then from the sign-in check: both say auditor.
    expect(screen.queryByRole('button', { name: 'Add qualification' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Assign/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});
