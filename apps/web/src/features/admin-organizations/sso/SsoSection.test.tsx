import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders, type FakeRequest } from '../../../test/render';
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
