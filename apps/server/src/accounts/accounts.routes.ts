import {
  Account,
  AccountCreateBody,
  AccountList,
  AccountListQuery,
  AccountPasswordBody,
  AccountUpdateBody,
  ErrorBody,
  IdParams,
  OkBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as accounts from './accounts.service.ts';

const tags = ['admin-users'];

export function accountsRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/users',
    {
      schema: {
        tags,
        description:
          'A page of accounts; filters combine, `q` is a case-insensitive literal substring of ' +
          'the email.',
        querystring: AccountListQuery,
        response: { 200: AccountList, 400: ErrorBody },
      },
    },
    (request) => accounts.listAccounts(ctx, request.query),
  );

  app.post(
    '/v1/admin/users',
    {
      schema: {
        tags,
        description:
          '409 email_taken when the email is in use (case-insensitive); 400 when organization_id ' +
          'matches no organization.',
        body: AccountCreateBody,
        response: { 201: Account, 400: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return accounts.createAccount(ctx, request.body);
    },
  );

  app.get(
    '/v1/admin/users/:id',
    { schema: { tags, params: IdParams, response: { 200: Account, 404: ErrorBody } } },
    (request) => accounts.getAccount(ctx, request.params.id),
  );

  app.put(
    '/v1/admin/users/:id',
    {
      schema: {
        tags,
        description:
          'Deactivating signs the account out everywhere at once. 409 cannot_modify_self when ' +
          'admins deactivate or demote their own account; 409 email_taken.',
        params: IdParams,
        body: AccountUpdateBody,
        response: { 200: Account, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    (request) => accounts.updateAccount(ctx, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/users/:id',
    {
      schema: {
        tags,
        description:
          'Removes the account and its tokens; sessions it started keep started_by_email. ' +
          '409 cannot_delete_self for the caller’s own account.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await accounts.deleteAccount(ctx, callerOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/v1/admin/users/:id/password',
    {
      schema: {
        tags,
        description:
          'Sets a new password and revokes the account’s tokens (all but the caller’s current one ' +
          'when admins change their own).',
        params: IdParams,
        body: AccountPasswordBody,
        response: { 200: OkBody, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await accounts.changePassword(ctx, callerOf(request), request.params.id, request.body);
      return { ok: true as const };
    },
  );
}
