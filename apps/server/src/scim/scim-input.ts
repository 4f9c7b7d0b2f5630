import { STORABLE_TEXT_PATTERN } from '@vrtc/contract';
import { invalidValue, ScimError } from './scim-errors.ts';

/**
 * The tolerant reader at the edge (CONVENTIONS.md): what Entra ID and Okta send, in the letter
 * cases and types each uses, parsed into the one strict shape the service works on. Attributes
 * this server keeps are read; others a directory maps by default (title, phone numbers, the
 * enterprise extension) are accepted and not kept, so provisioning does not stop on them.
 */

/** What the console keeps of a SCIM user. userName is the account's email. */
export interface ScimUserFields {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
}

export type ScimUserChange = Partial<ScimUserFields>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const STORABLE = new RegExp(STORABLE_TEXT_PATTERN, 'u');
const NAME_MAX = 200;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key of `object` in any letter case (SCIM attribute names are case-insensitive). */
function field(object: Json, name: string): unknown {
  const key = Object.keys(object).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : object[key];
}

export function userNameOf(value: unknown): string {
  if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value.trim())) {
    throw invalidValue('userName must be an email address');
  }
  return value.trim();
}

function textOf(value: unknown, attribute: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || value.length > NAME_MAX || !STORABLE.test(value)) {
    throw invalidValue(`${attribute} must be text of at most ${NAME_MAX} characters`);
  }
  return value.trim() === '' ? null : value;
}

/** true/false, or Entra's "True"/"False" strings. */
export function booleanOf(value: unknown, attribute = 'active'): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  throw invalidValue(`${attribute} must be true or false`);
}

/** The whole user of a POST or PUT (RFC 7643 §4.1); missing optional attributes are null. */
export function parseUserResource(body: unknown): ScimUserFields {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a User', 'invalidSyntax');
  const name = field(body, 'name');
  const active = field(body, 'active');
  return {
    userName: userNameOf(field(body, 'username')),
    externalId: textOf(field(body, 'externalid'), 'externalId'),
    givenName: isObject(name) ? textOf(field(name, 'givenname'), 'name.givenName') : null,
    familyName: isObject(name) ? textOf(field(name, 'familyname'), 'name.familyName') : null,
    displayName: textOf(field(body, 'displayname'), 'displayName'),
    active: active === undefined ? true : booleanOf(active),
  };
}

const CORE_USER_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:user:';
const withoutCorePrefix = (path: string) =>
  path.startsWith(CORE_USER_PREFIX) ? path.slice(CORE_USER_PREFIX.length) : path;

/** One attribute's new value (null: removed), by its path in lower case. */
function attributeChange(path: string, value: unknown): ScimUserChange {
  switch (path) {
    case 'username':
      return { userName: userNameOf(value) };
    case 'externalid':
      return { externalId: textOf(value, 'externalId') };
    case 'displayname':
      return { displayName: textOf(value, 'displayName') };
    case 'name.givenname':
      return { givenName: textOf(value, 'name.givenName') };
    case 'name.familyname':
      return { familyName: textOf(value, 'name.familyName') };
    case 'active':
      if (value === null) throw invalidValue('active cannot be removed');
      return { active: booleanOf(value) };
    case 'name':
      if (value === null) return { givenName: null, familyName: null };
      if (!isObject(value)) throw invalidValue('name must be an object');
      return objectChange(value, 'name.');
    default:
      // Not kept here (title, phone numbers, emails, the enterprise extension): accepted.
      return {};
  }
}

/** A value object without a path: each of its attributes, nested `name` or dotted keys alike. */
function objectChange(value: Json, prefix = ''): ScimUserChange {
  let change: ScimUserChange = {};
  for (const [key, inner] of Object.entries(value)) {
    const path = withoutCorePrefix(key.toLowerCase());
    change = { ...change, ...attributeChange(`${prefix}${path}`, inner) };
  }
  return change;
}

const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:patchop';

/**
 * A PATCH (RFC 7644 §3.5.2) as one change: operations `add`, `replace` and `remove` in any
 * letter case ("Replace", as Entra writes it), with a path (`active`, `name.givenName`, the core
 * schema's URN before it) or without one and a value object, applied in order.
 */
export function parsePatch(body: unknown): ScimUserChange {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a PatchOp', 'invalidSyntax');
  const schemas = field(body, 'schemas');
  if (
    Array.isArray(schemas) &&
    !schemas.some((schema) => String(schema).toLowerCase() === PATCH_OP_SCHEMA)
  ) {
    throw new ScimError(400, 'The body must be a PatchOp', 'invalidSyntax');
  }
  const operations = field(body, 'operations');
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 100) {
    throw new ScimError(400, 'Operations must hold 1 to 100 operations', 'invalidSyntax');
  }
  let change: ScimUserChange = {};
  for (const operation of operations) change = { ...change, ...operationChange(operation) };
  return change;
}

function operationChange(operation: unknown): ScimUserChange {
  if (!isObject(operation))
    throw new ScimError(400, 'An operation must be an object', 'invalidSyntax');
  const op = String(field(operation, 'op') ?? '').toLowerCase();
  if (!['add', 'replace', 'remove'].includes(op)) {
    throw new ScimError(400, 'op must be add, replace or remove', 'invalidSyntax');
  }
  const rawPath = field(operation, 'path');
  const value = field(operation, 'value');
  if (rawPath !== undefined && typeof rawPath !== 'string') {
    throw new ScimError(400, 'path must be a string', 'invalidPath');
  }
  const path = rawPath === undefined ? undefined : withoutCorePrefix(rawPath.trim().toLowerCase());
  if (op === 'remove') {
    if (!path) throw new ScimError(400, 'remove needs a path', 'noTarget');
    return attributeChange(path, null);
  }
  if (path) return attributeChange(path, value);
  if (!isObject(value)) throw invalidValue('An operation without a path needs a value object');
  return objectChange(value);
}
