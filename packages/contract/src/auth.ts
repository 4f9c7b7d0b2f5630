import { Type, type Static } from 'typebox';
import { Nullable, Role, Text, Uuid } from './common.ts';

export const LoginBody = Type.Object(
  {
    email: Text({ minLength: 1, maxLength: 254 }),
    password: Text({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const Me = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  organization_name: Type.String(),
});
export type Me = Static<typeof Me>;

export const LoginResponse = Type.Object({
  token: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  organization_name: Type.String(),
});
export type LoginResponse = Static<typeof LoginResponse>;

export const NullableString = Nullable(Type.String());
