import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../../test/render';
import type { Role, SsoTestOutcome, SsoTestResult } from '@vrtc/contract';
import SsoSection from './SsoSection';
import { bodyOf, domainsOf, formValuesOf } from './sso-form-model';

const UI_TIMEOUT = 60_000;
const organization = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'City Clinic',
  active: true,
  created_at: '2026-04-01T10:00:00.000Z',
  mfa_required: false,
};
const url = `/v1/admin/organizations/${organization.id}/sso`;
const saml = {
  organization_id: organization.id,
  protocol: 'saml' as const,
  issuer: '',
  client_id: '',
  client_secret_set: false,
  email_domains: ['clinic.example'],
  enforced: true,
  jit: false,
  default_role: 'client' as const,
  redirect_uri: 'https://console.example/v1/auth/sso/callback',
  idp_entity_id: 'https://idp.example/entity',
  entry_point: 'https://idp.example/sso',
  idp_certificate: 'MIIC...',
  acs_url: 'https://console.example/v1/auth/sso/saml/acs',
  sp_entity_id: `https://console.example/v1/auth/sso/saml/${organization.id}/metadata`,
  sp_metadata_url: `https://console.example/v1/auth/sso/saml/${organization.id}/metadata`,
  updated_at: '2026-04-01T10:00:00.000Z',
};

describe('SsoSection', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it(
    'sets up OIDC for an organisation without single sign-on',
    async () => {
      const sent: unknown[] = [];
      mockFetch({
        [`GET ${url}`]: { status: 404, body: { error: 'not_found', message: 'x' } },
        [`PUT ${url}`]: (request: FakeRequest) => {
          sent.push(request.body);
          return { ...saml, protocol: 'oidc', issuer: 'https://idp.example', client_id: 'c' };
        },
      });
      renderWithProviders(<SsoSection organization={organization} onClose={() => undefined} />);
      await userEvent.type(await screen.findByLabelText(/Issuer URL/), 'https://idp.example');
      await userEvent.type(screen.getByLabelText(/Client ID/), 'c');
      await userEvent.type(screen.getByLabelText(/Client secret/), 's3cret-value');
      await userEvent.type(screen.getByLabelText(/Email domains/), 'Clinic.example, @x.example');
      await userEvent.click(screen.getByRole('switch', { name: /Require single sign-on/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).toEqual({
        protocol: 'oidc',
        issuer: 'https://idp.example',
        client_id: 'c',
        client_secret: 's3cret-value',
        email_domains: ['clinic.example', 'x.example'],
        enforced: true,
        jit: false,
        default_role: 'client',
      });
    },
    UI_TIMEOUT,
  );

  it(
    'shows what to copy for SAML, the test sign-in and removal',
    async () => {
      mockFetch({ [`GET ${url}`]: saml });
      renderWithProviders(<SsoSection organization={organization} onClose={() => undefined} />);
      expect(await screen.findByText(saml.acs_url)).toBeInTheDocument();
      expect(screen.getAllByText(saml.sp_metadata_url).length).toBeGreaterThan(0);
      expect(
        screen.getByRole('button', { name: /Copy: Assertion consumer service/ }),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Test sign-in' })).toHaveAttribute(
        'href',
        `${url}/test`,
      );
      expect(screen.getByRole('button', { name: 'Remove single sign-on' })).toBeInTheDocument();
    },
    UI_TIMEOUT,
  );
});

const staff = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'staff@clinic.example',
  role: 'client' as const,
  organization_id: organization.id,
  organization_name: organization.name,
  active: true,
  sso_exempt: false,
  mfa_enabled: false,
  created_at: '2026-04-01T10:00:00.000Z',
};
const accountsAnswer = { users: [staff], total: 1, limit: 10, offset: 0 };

/** A test sign-in the provider answered: who it vouched for and what would happen to them here. */
const passedTest = (
  protocol: SsoTestResult['protocol'],
  claims: SsoTestResult['claims'],
  then: { outcome: SsoTestOutcome; email: string; role: Role | null },
): SsoTestResult => ({ ok: true, protocol, claims, ...then, code: null, detail: null });

/** A test sign-in that failed: its stable code and the check's own words. */
const failedTest = (
  protocol: SsoTestResult['protocol'],
  code: NonNullable<SsoTestResult['code']>,
  detail: string,
): SsoTestResult => ({
  ok: false,
  protocol,
  claims: {},
  outcome: null,
  email: null,
  role: null,
  code,
  detail,
});

/** The section as the console opens it when a test sign-in `testId` came back. */
const renderTested = (testId: string) =>
  renderWithProviders(
    <SsoSection
      organization={organization}
      tested={{ testId, startError: null }}
      onClose={() => undefined}
    />,
  );

describe('SsoSection: test sign-in and exempt accounts', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it(
    'shows the claims a test sign-in came back with, and what would happen here',
    async () => {
      mockFetch({
        [`GET ${url}`]: saml,
        [`GET ${url}/tests/t1`]: passedTest(
          'oidc',
          { sub: 'u-1', email: 'staff@clinic.example', groups: ['a', 'b'] },
          { outcome: 'existing_account', email: 'staff@clinic.example', role: 'client' },
        ),
        'GET /v1/admin/users': accountsAnswer,
      });
      renderTested('t1');
      const passed = await screen.findByRole('status');
      expect(passed).toHaveTextContent('Test sign-in succeeded');
      expect(passed).toHaveTextContent('staff@clinic.example signs in to their account (Client).');
      expect(passed).toHaveTextContent('email: staff@clinic.example');
      expect(passed).toHaveTextContent('groups: ["a","b"]');
    },
    UI_TIMEOUT,
  );

  it(
    'says as a warning that a provider’s good answer would still be refused here',
    async () => {
      mockFetch({
        [`GET ${url}`]: {
          ...saml,
          protocol: 'oidc',
          issuer: 'https://idp.example',
          client_id: 'c',
        },
        [`GET ${url}/tests/t3`]: passedTest(
          'oidc',
          { sub: 'u-2', email: 'boss@other.example' },
          { outcome: 'other_organization', email: 'boss@other.example', role: null },
        ),
        'GET /v1/admin/users': accountsAnswer,
      });
      renderTested('t3');
      const answered = await screen.findByRole('status');
      expect(answered).toHaveTextContent(
        'The provider answered, but this person would not be signed in',
      );
      expect(answered).not.toHaveTextContent('Test sign-in succeeded');
      expect(answered).toHaveTextContent(
        'boss@other.example is an account of another organisation: the sign-in would be refused.',
      );
    },
    UI_TIMEOUT,
  );

  it(
    'shows the exact reason a test sign-in failed, and a test that could not start',
    async () => {
      mockFetch({
        [`GET ${url}`]: saml,
        [`GET ${url}/tests/t2`]: failedTest(
          'saml',
          'invalid_response',
          'SAML assertion audience mismatch',
        ),
        'GET /v1/admin/users': accountsAnswer,
      });
      const { unmount } = renderTested('t2');
      // The alert with that title (a notification of another test may be on screen too).
      const failed = (await screen.findByText('Test sign-in failed')).closest('[role="alert"]');
      expect(failed).toHaveTextContent('Code: invalid_response');
      expect(failed).toHaveTextContent('The identity provider’s answer failed a check');
      expect(failed).toHaveTextContent('Technical detail: SAML assertion audience mismatch');
      unmount();
      renderWithProviders(
        <SsoSection
          organization={organization}
          tested={{ testId: null, startError: 'provider_error' }}
          onClose={() => undefined}
        />,
      );
      const notStarted = (await screen.findByText('Test sign-in failed')).closest('[role="alert"]');
      expect(notStarted).toHaveTextContent('Code: provider_error');
      expect(notStarted).toHaveTextContent('The identity provider could not be reached');
    },
    UI_TIMEOUT,
  );

  it(
    'words what a test sign-in came back with in Russian: the outcome and the failure',
    async () => {
      await i18n.changeLanguage('ru');
      try {
        mockFetch({
          [`GET ${url}`]: saml,
          [`GET ${url}/tests/t3`]: passedTest(
            'saml',
            { nameID: 'new@clinic.example' },
            { outcome: 'would_create', email: 'new@clinic.example', role: 'auditor' },
          ),
          [`GET ${url}/tests/t4`]: failedTest(
            'oidc',
            'invalid_state',
            'Unknown, used or expired sign-in',
          ),
          'GET /v1/admin/users': accountsAnswer,
        });
        const { unmount } = renderTested('t3');
        const passed = await screen.findByRole('status');
        expect(passed).toHaveTextContent('Проверка входа прошла');
        expect(passed).toHaveTextContent(
          'Для new@clinic.example при этом первом входе будет создана учётная запись (Аудитор).',
        );
        unmount();
        renderTested('t4');
        const failed = (await screen.findByText('Проверка входа не прошла')).closest(
          '[role="alert"]',
        );
        expect(failed).toHaveTextContent('Проверка входа устарела, уже использована');
        expect(failed).toHaveTextContent('Код: invalid_state');
        // The check's own words stay as they came: they are for the one who reads logs.
        expect(failed).toHaveTextContent(
          'Технические подробности: Unknown, used or expired sign-in',
        );
      } finally {
        await i18n.changeLanguage('en');
      }
    },
    UI_TIMEOUT,
  );

  it(
    'marks an account exempt from required single sign-on, and unmarks it',
    async () => {
      const sent: unknown[] = [];
      let exempt = false;
      mockFetch({
        [`GET ${url}`]: saml,
        'GET /v1/admin/users': ({ url: asked }: { url: URL }) => {
          expect(asked.searchParams.get('organization_id')).toBe(organization.id);
          return { ...accountsAnswer, users: [{ ...staff, sso_exempt: exempt }] };
        },
        [`PUT /v1/admin/users/${staff.id}`]: (request: FakeRequest) => {
          sent.push(request.body);
          exempt = (request.body as { sso_exempt: boolean }).sso_exempt;
          return { ...staff, sso_exempt: exempt };
        },
      });
      renderWithProviders(<SsoSection organization={organization} onClose={() => undefined} />);
      const toggle = await screen.findByRole('switch', { name: staff.email });
      expect(toggle).not.toBeChecked();
      await userEvent.click(toggle);
      await waitFor(() => expect(screen.getByRole('switch', { name: staff.email })).toBeChecked());
      await userEvent.click(screen.getByRole('switch', { name: staff.email }));
      await waitFor(() =>
        expect(screen.getByRole('switch', { name: staff.email })).not.toBeChecked(),
      );
      expect(sent).toEqual([{ sso_exempt: true }, { sso_exempt: false }]);
    },
    UI_TIMEOUT,
  );

  it(
    'turns the switch back when the server refuses the exemption',
    async () => {
      const calls = mockFetch({
        [`GET ${url}`]: saml,
        'GET /v1/admin/users': accountsAnswer,
        [`PUT /v1/admin/users/${staff.id}`]: {
          status: 403,
          body: { error: 'forbidden', message: 'Not allowed' },
        },
      });
      renderWithProviders(<SsoSection organization={organization} onClose={() => undefined} />);
      await userEvent.click(await screen.findByRole('switch', { name: staff.email }));
      await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
      await waitFor(() =>
        expect(screen.getByRole('switch', { name: staff.email })).not.toBeChecked(),
      );
    },
    UI_TIMEOUT,
  );
});

describe('sso form model', () => {
  it('keeps metadata XML over the hand-entered fields, and never sends an empty secret back', () => {
    const values = { ...formValuesOf(saml), idp_metadata_xml: '<md/>' };
    expect(bodyOf(values)).toEqual({
      protocol: 'saml',
      idp_metadata_xml: '<md/>',
      email_domains: ['clinic.example'],
      enforced: true,
      jit: false,
      default_role: 'client',
    });
    expect(formValuesOf(saml).client_secret).toBe('');
    expect(domainsOf(' a.example;B.example\nA.example ')).toEqual(['a.example', 'b.example']);
  });
});
