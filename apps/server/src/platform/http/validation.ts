import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { timestampNamesInstant } from '@vrtc/contract';

function makeAjv(options: Options) {
  // verbose: a failed pattern carries the value, so the message can say whether the text was
  // blank or held characters that cannot be stored (http-errors.ts).
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    verbose: true,
    ...options,
  });
  addFormats.default(ajv);
  // RFC 3339 admits a leap second and an offset of hours alone; a Date holds neither, and the
  // services read every time with `new Date`: such a time is refused here, never an Invalid Date.
  const rfc3339 = addFormats.default.get('date-time') as {
    validate: (text: string) => boolean;
    compare: (a: string, b: string) => number | undefined;
  };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => rfc3339.validate(text) && timestampNamesInstant(text),
    compare: rfc3339.compare,
  });
  return ajv;
}

// Query strings and path params arrive as text, so they are coerced to the schema's types
// ("?limit=5" → 5, "?ids=a" → ["a"]). JSON bodies already carry types: coercing them would
// silently turn `{"notes": 5}` into "5", so bodies are validated as sent.
const textAjv = makeAjv({ coerceTypes: 'array' });
const jsonAjv = makeAjv({ coerceTypes: false });

interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * Ajv coerces "1e400" to Infinity and then skips minimum/maximum for a number that is not finite,
 * so `?days=1e400` would pass a 1..365 check. Query strings and params are flat: refuse any
 * number in them that is not finite.
 */
function refuseInfinity(validate: Validator): Validator {
  const checked: Validator = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    for (const [name, value] of Object.entries((data as Record<string, unknown>) ?? {})) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((item) => typeof item === 'number' && !Number.isFinite(item))) {
        checked.errors = [
          {
            instancePath: `/${name}`,
            schemaPath: '#/isFinite',
            keyword: 'type',
            params: {},
            message: 'must be a finite number',
          },
        ];
        return false;
      }
    }
    checked.errors = null;
    return true;
  };
  return checked;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  httpPart === 'body' ? jsonAjv.compile(schema) : refuseInfinity(textAjv.compile(schema));
