import type { SsoTestResult } from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { spMetadata } from './saml.ts';
import * as client from 'openid-client';
import { SsoFailure, configOf, oidcConfigurationOf, samlProviderOf } from './sso-sign-in.ts';
import { baseUrl, samlEndpoints } from './sso.service.ts';

/** The console's SAML metadata for an organisation with SAML sign-on (404 otherwise). */
export async function samlMetadata(ctx: ServiceContext, organizationId: string): Promise<string> {
  const row = await ctx.db
    .selectFrom('sso_configs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('protocol', '=', 'saml')
    .executeTakeFirst();
  if (!row) throw notFound('SAML single sign-on');
  return spMetadata(samlProviderOf(row), samlEndpoints(ctx, organizationId));
}

/** What a platform admin's test sign-in saw, kept ten minutes. */
export async function ssoTestResult(
  ctx: ServiceContext,
  organizationId: string,
  testId: string,
): Promise<SsoTestResult> {
  const row = await ctx.db
    .selectFrom('sso_sign_ins')
    .select('result')
    .where('state', '=', testId)
    .where('organization_id', '=', organizationId)
    .where('purpose', '=', 'test')
    .where('expires_at', '>', ctx.clock.now())
    .executeTakeFirst();
  if (!row?.result) throw notFound('Test sign-in');
  return row.result as SsoTestResult;
}

/** The OIDC provider's sign-out URL (back to the console's /login), or /login when it has none. */
export async function providerSignOut(ctx: ServiceContext, organizationId: string) {
  const login = `${baseUrl(ctx)}/login`;
  try {
    const row = await configOf(ctx, { organization_id: organizationId });
    if (row.protocol !== 'oidc') return '/login';
    const configuration = await oidcConfigurationOf(ctx, row);
    if (!configuration.serverMetadata().end_session_endpoint) return '/login';
    return client.buildEndSessionUrl(configuration, { post_logout_redirect_uri: login }).href;
  } catch (error) {
    if (error instanceof SsoFailure) return '/login';
    throw error;
  }
}
