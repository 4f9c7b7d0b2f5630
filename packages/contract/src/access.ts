import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';

/** Time-limited scenario access per organisation (/v1/admin/scenarios/...). */

export const ACCESS_MAX_ORGANIZATIONS = 1000;

export const GrantAccessBody = Type.Object(
  {
    organization_ids: Type.Array(Uuid, {
      minItems: 1,
      maxItems: ACCESS_MAX_ORGANIZATIONS,
      uniqueItems: true,
    }),
    /** The console sends 23:59:59 UTC of the chosen day; must not be in the past. */
    expires_at: Timestamp,
  },
  { additionalProperties: false },
);
export type GrantAccessBody = Static<typeof GrantAccessBody>;

export const GrantAccessResponse = Type.Object({
  granted: Type.Integer(),
  expires_at: Timestamp,
});
export type GrantAccessResponse = Static<typeof GrantAccessResponse>;

export const RevokeAccessBody = Type.Object(
  {
    organization_ids: Type.Array(Uuid, { minItems: 1, maxItems: ACCESS_MAX_ORGANIZATIONS }),
  },
  { additionalProperties: false },
);
export type RevokeAccessBody = Static<typeof RevokeAccessBody>;

export const RevokeAccessResponse = Type.Object({ revoked: Type.Integer() });
export type RevokeAccessResponse = Static<typeof RevokeAccessResponse>;

/**
 * An organisation holding a grant for a scenario; the dates stay visible on an expired grant
 * (has_access false). Organisations without a grant are not listed.
 */
export const ScenarioAccessOrganization = Type.Object({
  organization_id: Uuid,
  organization_name: Type.String(),
  /** A grant exists and has not expired. */
  has_access: Type.Boolean(),
  granted_at: Nullable(Timestamp),
  granted_by: Nullable(Type.String()),
  expires_at: Nullable(Timestamp),
});
export type ScenarioAccessOrganization = Static<typeof ScenarioAccessOrganization>;

export const ScenarioAccessEntry = Type.Object({
  scenario_id: Uuid,
  scenario_name: Type.String(),
  total_organizations: Type.Integer(),
  organizations_with_access: Type.Integer(),
  organizations: Type.Array(ScenarioAccessOrganization),
});
export type ScenarioAccessEntry = Static<typeof ScenarioAccessEntry>;

/** Paged by scenario (`q` matches the scenario's name), each with every organisation. */
export const ScenarioAccessQuery = Type.Object(listQueryFields(['scenario_name'] as const), {
  additionalProperties: false,
});
export type ScenarioAccessQuery = Static<typeof ScenarioAccessQuery>;

export const ScenarioAccessMatrix = Type.Object({
  scenario_access: Type.Array(ScenarioAccessEntry),
  ...listPageFields,
});
export type ScenarioAccessMatrix = Static<typeof ScenarioAccessMatrix>;
