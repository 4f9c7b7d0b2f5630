import { Type, type Static } from 'typebox';

/** Shared building blocks of every request and response schema. */
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** A required human-readable name: trimmed non-blank, bounded. */
export const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
export const Description = Type.String({ maxLength: 5000 });
export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 6, maxLength: 200 });

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const Pagination = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'machine-readable code, e.g. not_found' }),
  message: Type.String({ description: 'readable text for people' }),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const OkBody = Type.Object({ ok: Type.Literal(true) });
export type OkBody = Static<typeof OkBody>;

export const DeviceType = Type.Union([
  Type.Literal('oculus'),
  Type.Literal('pico'),
  Type.Literal('quest'),
  Type.Literal('other'),
]);
export type DeviceType = Static<typeof DeviceType>;

export const MovementType = Type.Union([Type.Literal('slide'), Type.Literal('teleport')]);
export type MovementType = Static<typeof MovementType>;

export const DeviceStatus = Type.Union([
  Type.Literal('waiting'),
  Type.Literal('in_session'),
  Type.Literal('offline'),
]);
export type DeviceStatus = Static<typeof DeviceStatus>;

export const SessionStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
  Type.Literal('disconnected'),
  Type.Literal('timeout'),
]);
export type SessionStatus = Static<typeof SessionStatus>;

export const EndedSessionStatus = Type.Union([
  Type.Literal('completed'),
  Type.Literal('cancelled'),
  Type.Literal('disconnected'),
  Type.Literal('timeout'),
]);
export type EndedSessionStatus = Static<typeof EndedSessionStatus>;

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('client')]);
export type Role = Static<typeof Role>;
