import { ScimError } from './scim-errors.ts';

/**
 * The filters directories send before they create or link a user (RFC 7644 §3.4.2.2): Entra ID
 * and Okta both ask `userName eq "…"`, Entra also `externalId eq "…"`. One comparison, `eq`, on
 * the attributes below; anything else is refused with 400 invalidFilter, so a directory never
 * takes a list of everyone for "no match". Attribute names and the operator in any letter case,
 * as the RFC has them.
 */
export type ScimFilter = { attribute: 'userName' | 'externalId' | 'id'; value: string };

const ATTRIBUTES: Record<string, ScimFilter['attribute']> = {
  username: 'userName',
  externalid: 'externalId',
  id: 'id',
  // Okta may look a person up by their work email, which is the userName here.
  'emails.value': 'userName',
  'emails[type eq "work"].value': 'userName',
};

const COMPARISON = /^\s*(\S+(?:\s+eq\s+"work"\]\.value)?)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

export function parseScimFilter(filter: string | undefined): ScimFilter | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  const match = COMPARISON.exec(filter);
  const attribute = match && ATTRIBUTES[match[1]!.toLowerCase().replace(/\s+/g, ' ')];
  if (!match || !attribute) {
    throw new ScimError(
      400,
      'Only filters of the form userName eq "…", externalId eq "…" or id eq "…" are supported',
      'invalidFilter',
    );
  }
  let value: string;
  try {
    value = JSON.parse(`"${match[2]!}"`) as string;
  } catch {
    throw new ScimError(400, 'The filter’s value is not a valid string', 'invalidFilter');
  }
  return { attribute, value };
}
