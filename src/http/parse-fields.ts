import { AppError, type FieldErrors } from './errors.js';
import type { Field } from './fields.js';

/** Parses `input` with `field`, or throws the contract's validation error listing every failing field. */
export function parseOrThrow<T>(field: Field<T>, input: unknown): T {
  const result = field.parse(input ?? {});
  if (result.ok) return result.value;
  throw new AppError('validation_error', { fields: result.error as FieldErrors });
}
