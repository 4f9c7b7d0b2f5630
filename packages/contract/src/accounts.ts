import { Type, type Static } from 'typebox';
import { Email, Password, Role, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';

/** Admin user accounts (/v1/admin/users). The specification calls them users; the server, accounts. */

export const Account = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  organization_name: Type.String(),
  active: Type.Boolean(),
  /** Signs in by password even when its organisation enforces single sign-on (break-glass). */
  sso_exempt: Type.Optional(Type.Boolean()),
  /**
   * Has a second factor (a confirmed authenticator app or a passkey): a platform admin may reset
   * it (POST /v1/admin/users/:id/mfa/reset).
   */
  mfa_enabled: Type.Boolean(),
  created_at: Timestamp,
});
export type Account = Static<typeof Account>;

export const AccountList = Type.Object({ users: Type.Array(Account), ...listPageFields });
export type AccountList = Static<typeof AccountList>;

export const ACCOUNT_SORT_FIELDS = [
  'email',
  'role',
  'organization_name',
  'active',
  'created_at',
] as const;

/** `q` matches the email (a literal substring: % and _ are not wildcards). Default: by email. */
export const AccountListQuery = Type.Object(
  {
    organization_id: Type.Optional(Uuid),
    role: Type.Optional(Role),
    ...listQueryFields(ACCOUNT_SORT_FIELDS),
  },
  { additionalProperties: false },
);
export type AccountListQuery = Static<typeof AccountListQuery>;

export const AccountCreateBody = Type.Object(
  {
    email: Email,
    password: Password,
    role: Role,
    organization_id: Uuid,
  },
  { additionalProperties: false },
);
export type AccountCreateBody = Static<typeof AccountCreateBody>;

export const AccountUpdateBody = Type.Object(
  {
    email: Type.Optional(Email),
    role: Type.Optional(Role),
    organization_id: Type.Optional(Uuid),
    active: Type.Optional(Type.Boolean()),
    /** Break-glass: signs in by password even when its organisation enforces single sign-on. */
    sso_exempt: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AccountUpdateBody = Static<typeof AccountUpdateBody>;

export const AccountPasswordBody = Type.Object(
  { new_password: Password },
  { additionalProperties: false },
);
export type AccountPasswordBody = Static<typeof AccountPasswordBody>;
