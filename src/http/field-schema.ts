// Routes declare their body with a Field: Fastify gets its JSON Schema (for OpenAPI) and validates
// with the Field itself, so requests are checked with the contract's messages, all fields at once.
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, type FieldErrors } from './errors.js';
import type { Field } from './fields.js';

const FIELD = Symbol('field');

/** The JSON Schema of `field` for a route; `examples` are documented in OpenAPI and tested to pass. */
export function fieldSchema(field: Field<unknown>, examples?: unknown[]): Record<string, unknown> {
  return Object.assign(Object.create(null), field.jsonSchema, examples ? { examples } : {}, { [FIELD]: field });
}

export const fieldValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) => {
  const field = (schema as { [FIELD]?: Field<unknown> })[FIELD];
  if (!field) return (data) => ({ value: data });
  return (data) => {
    const result = field.parse(data ?? {});
    if (result.ok) return { value: result.value };
    return { error: new AppError('validation_error', { fields: result.error as FieldErrors }) };
  };
};
