import type { ServiceContext } from '../platform/service/context.ts';
import { SCIM_MAX_RESULTS, SCIM_USER_SCHEMA } from './scim-users.ts';
import { scimBaseUrl } from './scim-tokens.ts';

/**
 * What a directory reads to learn what this server does (RFC 7643 §5–§7): PATCH and filtering
 * yes (filters of one `eq`), bulk, sort, ETags and password changes no; Users only, no Groups.
 */
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function serviceProviderConfig(ctx: ServiceContext) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The organisation’s SCIM token, issued by a platform admin in the console',
        primary: true,
      },
    ],
    meta: {
      resourceType: 'ServiceProviderConfig',
      location: `${scimBaseUrl(ctx)}/ServiceProviderConfig`,
    },
  };
}

export function userResourceType(ctx: ServiceContext) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A console account of the organisation',
    schema: SCIM_USER_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${scimBaseUrl(ctx)}/ResourceTypes/User` },
  };
}

export const resourceTypes = (ctx: ServiceContext) => listOf([userResourceType(ctx)]);

const attribute = (
  name: string,
  options: { required?: boolean; uniqueness?: 'none' | 'server'; type?: string } = {},
) => ({
  name,
  type: options.type ?? 'string',
  multiValued: false,
  required: options.required ?? false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: options.uniqueness ?? 'none',
});

export function userSchema(ctx: ServiceContext) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: SCIM_USER_SCHEMA,
    name: 'User',
    description: 'A console account; userName is its email',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId'),
      {
        ...attribute('name', { type: 'complex' }),
        subAttributes: [attribute('givenName'), attribute('familyName'), attribute('formatted')],
      },
      attribute('displayName'),
      attribute('active', { type: 'boolean' }),
    ],
    meta: { resourceType: 'Schema', location: `${scimBaseUrl(ctx)}/Schemas/${SCIM_USER_SCHEMA}` },
  };
}

export const schemas = (ctx: ServiceContext) => listOf([userSchema(ctx)]);

function listOf<T>(resources: T[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
