import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords.ts';

/** Shared building blocks of every request and response schema. */
export const Uuid = Type.String({ format: 'uuid' });
/**
 * An instant, in RFC 3339's grammar, that names a real instant of years 1–9999: the server's
 * `date-time` check also refuses what the grammar admits but a JavaScript Date cannot hold (a leap
 * second, `23:59:60`; an offset of hours alone, `+05`) and what leaves the years both PostgreSQL
 * and the console print alike (`timestampNamesInstant`). Read it with `new Date(text)`: offsets
 * and lower-case letters are accepted and normalised to UTC.
 */
export const Timestamp = Type.String({ format: 'date-time', maxLength: 40 });

// Date.UTC would read the year 1 as 1901.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const AFTER_LAST_INSTANT = Date.parse('+010000-01-01T00:00:00Z');

/** Whether a text the RFC 3339 grammar admits names an instant a Date holds, in years 1–9999. */
export function timestampNamesInstant(text: string): boolean {
  const instant = Date.parse(text);
  return Number.isFinite(instant) && instant >= FIRST_INSTANT && instant < AFTER_LAST_INSTANT;
}
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/**
 * Characters PostgreSQL cannot store in text (NUL) or that are not Unicode at all (a UTF-16
 * surrogate without its pair). Every string a client sends is checked against one of the two
 * patterns below (Ajv compiles patterns with the `u` flag, so a proper pair, e.g. an emoji, is one
 * character and passes), and `apps/server/test/request-strings.test.ts` walks the OpenAPI document
 * so a new field without them fails.
 */
const UNSTORABLE = '\\u0000\\uD800-\\uDFFF';
/** Any text made of storable characters, including the empty string. */
export const STORABLE_TEXT_PATTERN = `^[^${UNSTORABLE}]*$`;
/** Storable text with at least one character that is not white space. */
export const NON_BLANK_TEXT_PATTERN = `^[^${UNSTORABLE}]*[^\\s${UNSTORABLE}][^${UNSTORABLE}]*$`;

export interface TextOptions {
  maxLength: number;
  minLength?: number;
  /** Refuse text that is empty or only white space. */
  nonBlank?: boolean;
  description?: string;
}

/**
 * The one schema for free text in requests: storable characters only, and always a maximum
 * length, so a client can neither poison a batched write nor grow a row without bound.
 */
export const Text = ({ nonBlank, ...options }: TextOptions) =>
  Type.String({
    ...options,
    ...(nonBlank ? { minLength: Math.max(1, options.minLength ?? 1) } : {}),
    pattern: nonBlank ? NON_BLANK_TEXT_PATTERN : STORABLE_TEXT_PATTERN,
  });

/** A required human-readable name: non-blank, bounded. */
export const NAME_MAX_LENGTH = 200;
export const Name = Text({ maxLength: NAME_MAX_LENGTH, nonBlank: true });
export const Description = Text({ maxLength: 5000 });
export const Email = Type.String({ format: 'email', maxLength: 254 });
/** A new password, wherever one is set (account creation, an admin's reset, the account's own). */
export const Password = Text({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const Pagination = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

export const OkBody = Type.Object({ ok: Type.Literal(true) });
export type OkBody = Static<typeof OkBody>;

/**
 * The closed sets of values, declared once: the schemas below, the server's table types, the
 * console's filters and the simulator all take them from here. (The migrations' CHECK
 * constraints spell them in SQL; a test compares them.)
 */
export const DEVICE_TYPES = ['oculus', 'pico', 'quest', 'other'] as const;
export const MOVEMENT_TYPES = ['slide', 'teleport'] as const;
export const DEVICE_STATUSES = ['waiting', 'in_session', 'offline'] as const;
export const SESSION_STATUSES = [
  'active',
  'completed',
  'cancelled',
  'disconnected',
  'timeout',
] as const;
export const ENDED_SESSION_STATUSES = [
  'completed',
  'cancelled',
  'disconnected',
  'timeout',
] as const;
/**
 * `auditor`: an inspector's account of one organisation. It reads what the organisation's staff
 * read and changes nothing (routes of access `reader` only).
 */
export const ROLES = ['admin', 'client', 'auditor'] as const;

export const DeviceType = Type.Enum(DEVICE_TYPES);
export type DeviceType = Static<typeof DeviceType>;

export const MovementType = Type.Enum(MOVEMENT_TYPES);
export type MovementType = Static<typeof MovementType>;

export const DeviceStatus = Type.Enum(DEVICE_STATUSES);
export type DeviceStatus = Static<typeof DeviceStatus>;

export const SessionStatus = Type.Enum(SESSION_STATUSES);
export type SessionStatus = Static<typeof SessionStatus>;

export const EndedSessionStatus = Type.Enum(ENDED_SESSION_STATUSES);
export type EndedSessionStatus = Static<typeof EndedSessionStatus>;

export const Role = Type.Enum(ROLES);
export type Role = Static<typeof Role>;
