// A provider's answer read through its wire schema: one TypeBox definition gives both the type the
// connector works with and the check at the edge. What does not fit the schema is a reason, which
// the connector turns into a typed `unknown` answer: never a crash, never a guess.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { jsonOf, TransportError, type HttpAnswer } from './provider-http.js';

export type Read<T> = { ok: true; body: T } | { ok: false; reason: string };

/** `value` as `schema`'s type, or why it is not one (the first difference, by its path). */
export function readAs<S extends TSchema>(schema: S, value: unknown, what: string): Read<Static<S>> {
  if (Value.Check(schema, value)) return { ok: true, body: value };
  const first = Value.Errors(schema, value).First();
  return { ok: false, reason: `${what} does not fit its published shape${first ? ` (${first.path || 'the body'}: ${first.message.toLowerCase()})` : ''}` };
}

/** The answer's JSON body as `schema`'s type, or why it is not one (not JSON, or another shape). */
export function readJson<S extends TSchema>(answer: HttpAnswer, schema: S, what: string): Read<Static<S>> {
  let body: unknown;
  try {
    body = jsonOf(answer);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { ok: false, reason: `${what}: ${error.message}` };
  }
  return readAs(schema, body, what);
}

/** `value` when it is one of `names` (the provider's own words for a status), else undefined. */
export function oneOf<const N extends readonly string[]>(names: N, value: unknown): N[number] | undefined {
  return typeof value === 'string' && (names as readonly string[]).includes(value) ? (value as N[number]) : undefined;
}

/** Every case of a status handled: a status added to a provider's list fails the type check where it is not. */
export function unmapped(status: never): never {
  throw new Error(`a status with no meaning: ${String(status)}`);
}
