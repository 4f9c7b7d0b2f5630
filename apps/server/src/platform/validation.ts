import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(options: Options) {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

// Query strings and path params arrive as text, so they are coerced to the schema's types
// ("?limit=5" → 5, "?ids=a" → ["a"]). JSON bodies already carry types: coercing them would
// silently turn `{"notes": 5}` into "5", so bodies are validated as sent.
const textAjv = makeAjv({ coerceTypes: 'array' });
const jsonAjv = makeAjv({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? jsonAjv : textAjv).compile(schema);
