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

/**
 * The organisations whose grants go, or every organisation that has access now (the console's
 * revoke-all: a scenario's grants are paged, so the console does not hold all their ids). Expired
 * grants stay listed either way until revoked by id or granted again.
 */
export const RevokeAccessBody = Type.Union([
  Type.Object(
    {
      organization_ids: Type.Array(Uuid, { minItems: 1, maxItems: ACCESS_MAX_ORGANIZATIONS }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ all_with_access: Type.Literal(true) }, { additionalProperties: false }),
]);
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

/** How many of a scenario's grants its matrix entry carries: the first page of its table. */
export const ACCESS_ENTRY_ORGANIZATIONS = 10;

export const ScenarioAccessEntry = Type.Object({
  scenario_id: Uuid,
  scenario_name: Type.String(),
  /** The scenario's English name, when it has one (the English console shows it). */
  scenario_name_en: Nullable(Type.String()),
  /** Every organisation, granted or not. */
  total_organizations: Type.Integer(),
  /** Organisations whose grant is live. */
  organizations_with_access: Type.Integer(),
  /** Organisations holding a grant, live or expired: all pages of the scenario's grants. */
  organizations_with_grant: Type.Integer(),
  /**
   * The first ACCESS_ENTRY_ORGANIZATIONS grants by organisation name; the rest, other orders and
   * a search come from GET /v1/admin/scenarios/{id}/access.
   */
  organizations: Type.Array(ScenarioAccessOrganization, {
    maxItems: ACCESS_ENTRY_ORGANIZATIONS,
  }),
});
export type ScenarioAccessEntry = Static<typeof ScenarioAccessEntry>;

/** Paged by scenario (`q` matches the scenario's name), each with its first grants. */
export const ScenarioAccessQuery = Type.Object(listQueryFields(['scenario_name'] as const), {
  additionalProperties: false,
});
export type ScenarioAccessQuery = Static<typeof ScenarioAccessQuery>;

export const ScenarioAccessMatrix = Type.Object({
  scenario_access: Type.Array(ScenarioAccessEntry),
  ...listPageFields,
});
export type ScenarioAccessMatrix = Static<typeof ScenarioAccessMatrix>;

/** One scenario's grants, paged (`q` matches the organisation's name). */
export const ScenarioGrantsQuery = Type.Object(
  listQueryFields(['organization_name', 'granted_at', 'expires_at'] as const),
  { additionalProperties: false },
);
export type ScenarioGrantsQuery = Static<typeof ScenarioGrantsQuery>;

export const ScenarioGrantsPage = Type.Object({
  organizations: Type.Array(ScenarioAccessOrganization),
  ...listPageFields,
});
export type ScenarioGrantsPage = Static<typeof ScenarioGrantsPage>;
