import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Evaluation, Me, RecordQualification } from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStoredUser } from '../../auth/storage';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../test/render';
import { TraineeQualifications } from './TraineeQualifications';

const ORG = '00000000-0000-4000-8000-00000000000a';
const TRAINEE = '00000000-0000-4000-8000-0000000000a1';
const FORKLIFT = '00000000-0000-4000-8000-0000000000f1';
/** Typing into a dialog on a loaded two-core machine takes its time. */
const UI_TIMEOUT = 60_000;
const CODE = 'AbC_'.repeat(10) + 'xyz';

const staff: Me = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'olga@plant.example',
  role: 'client',
  organization_id: ORG,
  organization_name: 'Plant',
};
const auditor: Me = { ...staff, role: 'auditor', email: 'inspector@plant.example' };

const forklift: RecordQualification = {
  qualification_id: FORKLIFT,
  name: 'Погрузчик',
  name_en: 'Forklift',
  archived: false,
  assigned: true,
  due_at: '2026-03-01T00:00:00.000Z',
  status: 'qualified',
  earned_at: '2026-03-05T10:00:00.000Z',
  valid_until: '2027-01-10T10:00:00.000Z',
  certificate_code: CODE,
  history: [
    {
      kind: 'evaluation',
      at: '2026-03-05T10:00:00.000Z',
      certificate_code: null,
      valid_until: null,
      result: 'pass',
      meaning: 'Practical evaluation performed and passed',
      notes: null,
      signer_name: 'ivan@plant.example',
      signer_email: 'ivan@plant.example',
      reason: null,
      by_email: null,
    },
    {
      kind: 'award',
      at: '2026-03-05T10:00:00.000Z',
      certificate_code: CODE,
      valid_until: '2027-01-10T10:00:00.000Z',
      result: null,
      meaning: null,
      notes: null,
      signer_name: null,
      signer_email: null,
      reason: null,
      by_email: null,
    },
  ],
};

function signAnswer({ body }: FakeRequest) {
  const sent = body as { password: string; meaning: string; result: 'pass' | 'fail' };
  if (sent.password !== 'right horse battery') {
    return {
      status: 403,
      body: { error: 'signature_rejected', message: 'The password is wrong' },
    };
  }
  const evaluation: Evaluation = {
    id: '00000000-0000-4000-8000-0000000000e1',
    vr_user_id: TRAINEE,
    qualification_id: FORKLIFT,
    result: sent.result,
    meaning: sent.meaning,
    notes: null,
    signer_name: staff.email,
    signer_email: staff.email,
    signed_at: '2026-05-20T12:00:00.000Z',
  };
  return { status: 201, body: evaluation };
}

function renderSection(user: Me = staff) {
  writeStoredUser(user);
  const calls = mockFetch({
    'GET /v1/me': user,
    [`POST /v1/vr-users/${TRAINEE}/evaluations`]: signAnswer,
  });
  renderWithProviders(
    <TraineeQualifications vrUserId={TRAINEE} vrUserName="Anna" qualifications={[forklift]} />,
  );
  return calls;
}

afterEach(async () => {
  await i18n.changeLanguage('ru');
});

describe('TraineeQualifications', () => {
  it('shows the status, the certificate and the signed history', async () => {
    await i18n.changeLanguage('en');
    renderSection();
    const item = await screen.findByTestId('trainee-qualification');
    expect(within(item).getByText('Forklift')).toBeInTheDocument();
    expect(within(item).getByText('Qualified')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: 'Print certificate' })).toHaveAttribute(
      'href',
      `/certificates/${CODE}`,
    );
    await userEvent.click(within(item).getByRole('button', { name: 'History (2 entries)' }));
    const evaluation = await within(item).findByTestId('history-evaluation');
    expect(evaluation).toHaveTextContent('Signed by ivan@plant.example (ivan@plant.example)');
    expect(evaluation).toHaveTextContent('Meaning: Practical evaluation performed and passed');
  });

  it(
    'shows the signature before it is given, and a wrong password in the form',
    async () => {
      await i18n.changeLanguage('en');
      const calls = renderSection();
      await userEvent.click(await screen.findByRole('button', { name: 'Sign evaluation' }));
      const dialog = await screen.findByRole('dialog');
      const preview = within(dialog).getByTestId('signature-preview');
      expect(preview).toHaveTextContent('olga@plant.example (olga@plant.example)');
      expect(preview).toHaveTextContent('Practical evaluation performed and passed. Result: Pass');
      await userEvent.click(within(dialog).getByRole('radio', { name: 'Fail' }));
      expect(preview).toHaveTextContent(
        'Practical evaluation performed and not passed. Result: Fail',
      );

      await userEvent.click(within(dialog).getByLabelText(/Your password/));
      await userEvent.paste('wrong one');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
      expect(
        await within(dialog).findByText('The password is wrong: the evaluation was not signed.'),
      ).toBeInTheDocument();
      expect(screen.getByRole('dialog')).toBeInTheDocument();

      await userEvent.click(within(dialog).getByLabelText(/Your password/));
      await userEvent.paste('right horse battery');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      const signed = calls.filter((call) => call.method === 'POST');
      expect(signed.at(-1)?.body).toEqual({
        qualification_id: FORKLIFT,
        result: 'fail',
        meaning: 'Practical evaluation performed and not passed',
        notes: null,
        password: 'right horse battery',
      });
    },
    UI_TIMEOUT,
  );

  it('shows an auditor neither Sign nor Revoke', async () => {
    await i18n.changeLanguage('en');
    const calls = renderSection(auditor);
    await screen.findByTestId('trainee-qualification');
    // Until the sign-in check answers the account is the one stored at sign-in: both say auditor.
    await waitFor(() => expect(calls.some((call) => call.url === '/v1/auth/session')).toBe(true));
    expect(await screen.findByText('Forklift')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Sign/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });
});
