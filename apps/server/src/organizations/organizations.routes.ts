import {
  ErrorBody,
  IdParams,
  OkBody,
  Organization,
  OrganizationAnalytics,
  OrganizationAnalyticsQuery,
  OrganizationCreateBody,
  OrganizationList,
  OrganizationListQuery,
  OrganizationUpdateBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as organizations from './organizations.service.ts';

const tags = ['admin-organizations'];

export function organizationsRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/organizations',
    {
      schema: {
        tags,
        description:
          'A page of organisations; `q` matches the name. With include_stats=true each carries ' +
          'its figures (stats), the answer a summary over all organisations, and the list may be ' +
          'sorted by a figure.',
        querystring: OrganizationListQuery,
        response: { 200: OrganizationList, 400: ErrorBody },
      },
    },
    (request) => organizations.listOrganizations(ctx, request.query),
  );

  app.post(
    '/v1/admin/organizations',
    {
      schema: {
        tags,
        body: OrganizationCreateBody,
        response: { 201: Organization, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return organizations.createOrganization(ctx, request.body);
    },
  );

  app.get(
    '/v1/admin/organizations/:id',
    {
      schema: {
        tags,
        description: 'The organization with its figures (stats).',
        params: IdParams,
        response: { 200: Organization, 404: ErrorBody },
      },
    },
    (request) => organizations.getOrganization(ctx, request.params.id),
  );

  app.put(
    '/v1/admin/organizations/:id',
    {
      schema: {
        tags,
        description:
          'Deactivating signs out every account of the organization at once. 409 ' +
          'cannot_deactivate_own_organization when admins deactivate their own organization.',
        params: IdParams,
        body: OrganizationUpdateBody,
        response: { 200: Organization, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    (request) =>
      organizations.updateOrganization(ctx, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/organizations/:id',
    {
      schema: {
        tags,
        description:
          'Refused with 409 organization_in_use while the organization has any accounts, VR users, ' +
          'devices or sessions (the message says what it has; deactivate it instead). Otherwise ' +
          'deleted together with its scenario access grants and its enrolment code.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await organizations.deleteOrganization(ctx, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/v1/admin/organizations/:id/analytics',
    {
      schema: {
        tags,
        description:
          'Top 10 VR users, device usage and scenario figures over the organization’s sessions ' +
          'started in the last `days` days (1..365, default 30).',
        params: IdParams,
        querystring: OrganizationAnalyticsQuery,
        response: { 200: OrganizationAnalytics, 400: ErrorBody, 404: ErrorBody },
      },
    },
    (request) => organizations.organizationAnalytics(ctx, request.params.id, request.query),
  );
}
