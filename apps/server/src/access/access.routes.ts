import {
  ErrorBody,
  GrantAccessBody,
  GrantAccessResponse,
  IdParams,
  RevokeAccessBody,
  RevokeAccessResponse,
  ScenarioAccessMatrix,
  ScenarioAccessQuery,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as access from './access.service.ts';

const tags = ['scenario-access'];

/** Admin management of which organisations may run which scenario, and until when. */
export function accessRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/scenarios/access',
    {
      schema: {
        tags,
        description:
          'A page of scenarios (`q` matches the name), each listing every organisation. ' +
          'has_access is true when a grant exists and has no expiry or expires later than now; ' +
          'an expired grant is listed with has_access false and its dates.',
        querystring: ScenarioAccessQuery,
        response: { 200: ScenarioAccessMatrix },
      },
    },
    (request) => access.accessMatrix(ctx, request.query),
  );

  app.post(
    '/v1/admin/scenarios/:id/grant',
    {
      schema: {
        tags,
        description:
          'Grants the scenario to the organisations until expires_at. Re-granting replaces the ' +
          'expiry, the grant time and the granting admin. 400 when expires_at is in the past; ' +
          '404 for an unknown scenario or organisation (nothing is granted then).',
        params: IdParams,
        body: GrantAccessBody,
        response: { 200: GrantAccessResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    (request) => access.grantAccess(ctx, callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/v1/admin/scenarios/:id/revoke',
    {
      schema: {
        tags,
        description:
          'Removes the grants of the listed organisations (those without one are ignored); ' +
          'revoke-all sends every organisation that has access.',
        params: IdParams,
        body: RevokeAccessBody,
        response: { 200: RevokeAccessResponse, 404: ErrorBody },
      },
    },
    (request) => access.revokeAccess(ctx, request.params.id, request.body),
  );
}
