// Request fields in the manner of the gateway's serializers: one definition gives the validator
// (with the contract's messages, every failing field at once) and the JSON Schema for OpenAPI.
import type { FieldError, FieldErrors } from './errors.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: FieldError };

export interface Field<T> {
  readonly required: boolean;
  readonly jsonSchema: Record<string, unknown>;
  parse(value: unknown): Parsed<T>;
}

export const messages = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  null: 'This field may not be null.',
  string: 'Not a valid string.',
  url: 'Enter a valid URL.',
  email: 'Enter a valid email address.',
  integer: 'A valid integer is required.',
  nullCharacters: 'Null characters are not allowed.',
  nesting: (n: number) => `Ensure this value has no more than ${n} levels of nesting.`,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  minValue: (n: number) => `Ensure this value is greater than or equal to ${n}.`,
  maxValue: (n: number) => `Ensure this value is less than or equal to ${n}.`,
  choice: (value: string) => `"${value}" is not a valid choice.`,
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  dict: (value: unknown) => `Invalid data. Expected a dictionary, but got ${typeName(value)}.`,
  list: (value: unknown) => `Expected a list of items but got type "${typeName(value)}".`,
} as const;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

// PostgreSQL stores neither NUL characters nor unpaired UTF-16 surrogates (in text or in JSON).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Text with neither a NUL nor any surrogate (nearly all of it) needs no closer look.
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

function textProblem(value: string): string | undefined {
  if (!MAYBE_UNSTORABLE.test(value)) return undefined;
  if (value.includes('\u0000')) return messages.nullCharacters;
  if (LONE_SURROGATE.test(value)) return messages.string;
  return undefined;
}

/** Whether PostgreSQL can store `value` as text. */
export const storable = (value: string): boolean => textProblem(value) === undefined;

const MAX_JSON_DEPTH = 32;

/** Why a JSON value kept as it is could not be stored (or echoed), or undefined. */
function jsonProblem(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_JSON_DEPTH) return messages.nesting(MAX_JSON_DEPTH);
  for (const [key, item] of Object.entries(value)) {
    const problem = (Array.isArray(value) ? undefined : textProblem(key)) ?? jsonProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (...errors: string[]): Parsed<never> => ({ ok: false, error: errors });

interface TextOptions {
  required?: boolean;
  maxLength?: number;
  description?: string;
  check?: (value: string) => string | undefined;
  format?: string;
}

/** A string; numbers are accepted and turned into strings, surrounding white space is trimmed. */
export function text(options: TextOptions = {}): Field<string> {
  const maxLength = options.maxLength ?? 255;
  return {
    required: options.required ?? false,
    jsonSchema: {
      type: 'string',
      minLength: 1,
      maxLength,
      ...(options.format ? { format: options.format } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    parse(value) {
      if (value === null) return fail(messages.null);
      if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
      if (typeof value !== 'string') return fail(messages.string);
      const unstorable = textProblem(value);
      if (unstorable) return fail(unstorable);
      const trimmed = value.trim();
      if (trimmed === '') return fail(messages.blank);
      if (trimmed.length > maxLength) return fail(messages.maxLength(maxLength));
      const problem = options.check?.(trimmed);
      return problem ? fail(problem) : ok(trimmed);
    },
  };
}

/** `value` read as an http(s) address with a host, or undefined when it is not one. */
export function httpUrl(value: string): URL | undefined {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

export const isHttpUrl = (value: string): boolean => httpUrl(value) !== undefined;

export const url = (options: Omit<TextOptions, 'check' | 'format'> = {}) =>
  text({ maxLength: 2048, ...options, format: 'uri', check: (v) => (isHttpUrl(v) ? undefined : messages.url) });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const email = (options: Omit<TextOptions, 'check' | 'format'> = {}) =>
  text({ maxLength: 254, ...options, format: 'email', check: (v) => (EMAIL.test(v) ? undefined : messages.email) });

interface IntegerOptions {
  required?: boolean;
  min?: number;
  max?: number;
  minMessage?: string;
  description?: string;
}

/** An integer, given as a JSON number or a numeric string. */
export function integer(options: IntegerOptions = {}): Field<number> {
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return {
    required: options.required ?? false,
    jsonSchema: {
      oneOf: [
        { type: 'integer', ...(options.min !== undefined ? { minimum: options.min } : {}), maximum: max },
        { type: 'string', pattern: '^-?[0-9]+$' },
      ],
      ...(options.description ? { description: options.description } : {}),
    },
    parse(value) {
      if (value === null) return fail(messages.null);
      let n: number;
      if (typeof value === 'number') n = value;
      else if (typeof value === 'string' && /^\s*-?\d+(\.0*)?\s*$/.test(value)) n = Number(value.trim());
      else return fail(messages.integer);
      if (!Number.isInteger(n)) return fail(messages.integer);
      if (options.min !== undefined && n < options.min) return fail(options.minMessage ?? messages.minValue(options.min));
      if (n > max) return fail(messages.maxValue(max));
      return ok(n);
    },
  };
}

export function choice<T extends string>(values: readonly T[], options: { required?: boolean; description?: string } = {}): Field<T> {
  return {
    required: options.required ?? false,
    jsonSchema: { type: 'string', enum: [...values], ...(options.description ? { description: options.description } : {}) },
    parse(value) {
      if (typeof value !== 'string') return fail(messages.choice(String(value)));
      return (values as readonly string[]).includes(value) ? ok(value as T) : fail(messages.choice(value));
    },
  };
}

const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A calendar date, YYYY-MM-DD, or a full ISO 8601 timestamp. */
export function date(options: { required?: boolean; description?: string } = {}): Field<string> {
  return {
    required: options.required ?? false,
    jsonSchema: { type: 'string', format: 'date', ...(options.description ? { description: options.description } : {}) },
    parse(value) {
      if (typeof value !== 'string' || !DATE_OR_TIMESTAMP.test(value)) return fail(messages.date);
      const day = value.slice(0, 10);
      const parsed = new Date(`${day}T00:00:00Z`);
      if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) return fail(messages.date);
      if (value.length > 10 && Number.isNaN(new Date(value).getTime())) return fail(messages.date);
      return ok(value);
    },
  };
}

type Shape = Record<string, Field<unknown>>;
type Output<S extends Shape> = { [K in keyof S]?: S[K] extends Field<infer T> ? T : never };

interface ObjectOptions<S extends Shape> {
  required?: boolean;
  description?: string;
  /** Checks across fields, run only when every field is valid. */
  refine?: (value: Output<S>) => FieldErrors | undefined;
  /** Keeps extra keys matching this test (e.g. `merchant_*`) as they are, if they can be stored. */
  passthrough?: (key: string) => boolean;
}

export function object<S extends Shape>(shape: S, options: ObjectOptions<S> = {}): Field<Output<S> & Record<string, unknown>> {
  const properties = Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, f.jsonSchema]));
  const required = Object.entries(shape).filter(([, f]) => f.required).map(([k]) => k);
  return {
    required: options.required ?? false,
    jsonSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    parse(value) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return { ok: false, error: { non_field_errors: [messages.dict(value)] } };
      }
      const input = value as Record<string, unknown>;
      const errors: FieldErrors = {};
      const output: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(shape)) {
        if (!Object.hasOwn(input, key) || input[key] === undefined) {
          if (field.required) errors[key] = [messages.required];
          continue;
        }
        const result = field.parse(input[key]);
        if (!result.ok) errors[key] = result.error;
        else if (result.value !== undefined) output[key] = result.value;
      }
      if (options.passthrough) {
        for (const [key, item] of Object.entries(input)) {
          if (!options.passthrough(key)) continue;
          const problem = textProblem(key) ?? jsonProblem(item);
          if (problem) errors[key] = [problem];
          else output[key] = item;
        }
      }
      if (Object.keys(errors).length > 0) return { ok: false, error: errors };
      const crossErrors = options.refine?.(output as Output<S>);
      if (crossErrors) return { ok: false, error: crossErrors };
      return ok(output as Output<S> & Record<string, unknown>);
    },
  };
}

interface ListOptions {
  required?: boolean;
  maxItems?: number;
  description?: string;
  /** An empty list is the same as none: parsed as undefined, so the object leaves the key out. */
  emptyIsNone?: boolean;
}

export function list<T>(item: Field<T>, options: ListOptions & { emptyIsNone: true }): Field<T[] | undefined>;
export function list<T>(item: Field<T>, options?: ListOptions): Field<T[]>;
export function list<T>(item: Field<T>, options: ListOptions = {}): Field<T[] | undefined> {
  const maxItems = options.maxItems ?? 1000;
  return {
    required: options.required ?? false,
    jsonSchema: { type: 'array', items: item.jsonSchema, maxItems, ...(options.description ? { description: options.description } : {}) },
    parse(value) {
      if (!Array.isArray(value)) return fail(messages.list(value));
      if (value.length > maxItems) return fail(`Ensure this field has no more than ${maxItems} elements.`);
      if (value.length === 0 && options.emptyIsNone) return ok(undefined);
      const errors: FieldErrors[] = [];
      const output: T[] = [];
      let failed = false;
      for (const entry of value) {
        const result = item.parse(entry);
        if (result.ok) {
          output.push(result.value);
          errors.push({});
        } else {
          failed = true;
          errors.push(result.error as FieldErrors);
        }
      }
      return failed ? { ok: false, error: errors } : ok(output);
    },
  };
}
