import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNull = (schema: unknown) =>
  isSchema(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

/** Keywords whose value is one schema, or a map of schemas, or a list of schemas. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'] as const;
const MAP = ['properties', 'patternProperties', 'definitions', '$defs'] as const;
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const COMBINED = ['$ref', 'anyOf', 'oneOf', 'allOf', 'if'] as const;

/**
 * The same schema with every union of a schema and null (the contract's `Nullable`, `anyOf: [X,
 * {type: 'null'}]`) written as X with `nullable: true`. fast-json-stringify serialises an `anyOf`
 * by validating the value against each branch with Ajv first (on every answer, errors allocated for
 * each branch that fails), while `nullable` costs it one `=== null`: the heartbeat's answer has two
 * such unions, and a headset in a session had its whole session validated on every heartbeat.
 * The output is the same. The route's own schema (validation elsewhere, the OpenAPI document) is
 * not touched: this is a copy.
 */
export function withNullableForNullUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullableForNullUnions);
  if (!isSchema(schema)) return schema;
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNull)) {
    const other = anyOf.find((branch) => !isNull(branch));
    // A branch fast-json-stringify decides itself (a union, a reference) would meet null there.
    if (isSchema(other) && !COMBINED.some((key) => key in other)) {
      const { anyOf: _union, ...siblings } = schema;
      return { ...siblings, ...(withNullableForNullUnions(other) as Schema), nullable: true };
    }
  }
  const copy: Schema = { ...schema };
  for (const key of ONE) if (key in copy) copy[key] = withNullableForNullUnions(copy[key]);
  for (const key of LIST) if (key in copy) copy[key] = withNullableForNullUnions(copy[key]);
  for (const key of MAP) {
    const map = copy[key];
    if (!isSchema(map)) continue;
    copy[key] = Object.fromEntries(
      Object.entries(map).map(([name, value]) => [name, withNullableForNullUnions(value)]),
    );
  }
  return copy;
}

type Serializer = ReturnType<typeof fastJson>;

/**
 * Serialisers already built, by their schema's text. A serialiser depends on its schema alone
 * (fast-json-stringify reads the schema's JSON keywords), and every app in a process declares the
 * same routes, so an app built again in the same process (the tests build one per file) reuses
 * them: building them was most of an app's start (fast-json-stringify makes an Ajv instance and
 * generates code for each schema; 0.7–1.0 s of CPU an app). A server process builds its one app
 * as before.
 */
const built = new Map<string, Serializer>();

/**
 * Fastify's serializer compiler (fast-json-stringify, as Fastify's own) for the schemas above: the
 * answers every route serialises, the headsets' heartbeat first of all.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = JSON.stringify(schema);
  let serializer = built.get(key);
  if (!serializer) {
    serializer = fastJson(withNullableForNullUnions(schema) as Parameters<typeof fastJson>[0]);
    built.set(key, serializer);
  }
  return serializer;
};
