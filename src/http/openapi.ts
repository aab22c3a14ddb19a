// The OpenAPI 3.1 document, built from the same route schemas that validate requests and from the
// error catalogue, so the document cannot drift from what the server does.
import type { RouteOptions } from 'fastify';
import { errorCatalogue, type ErrorCode } from './errors.js';
import { bodyErrors, commonApiErrors } from './route-docs.js';

type Schema = Record<string, unknown>;

const errorExamples: Record<ErrorCode, unknown> = {
  not_authenticated: { detail: errorCatalogue.not_authenticated.detail, status_code: 401 },
  invalid_token: { detail: errorCatalogue.invalid_token.detail, status_code: 401 },
  validation_error: { amount: ['Amount should be at least 10 paisa.'], return_url: ['This field may not be blank.'], error_key: 'validation_error' },
  bad_request: { detail: 'Refund amount exceeds the refundable amount of 500 paisa.', error_key: 'validation_error' },
  json_parse_error: { detail: 'JSON parse error - Unexpected token } in JSON at position 10', error_key: 'validation_error' },
  forbidden: { detail: 'This merchant is suspended: live payments are off.', status_code: 403 },
  not_found: { detail: errorCatalogue.not_found.detail, error_key: 'validation_error' },
  invalid_page: { detail: errorCatalogue.invalid_page.detail },
  route_not_found: { detail: 'Not found.', status_code: 404 },
  method_not_allowed: { detail: errorCatalogue.method_not_allowed.detail, status_code: 405 },
  conflict: { detail: 'This Idempotency-Key was already used with a different request.', status_code: 409 },
  payload_too_large: { detail: errorCatalogue.payload_too_large.detail, status_code: 413 },
  unsupported_media_type: { detail: 'Unsupported media type "text/plain" in request.', status_code: 415 },
  rate_limited: { detail: errorCatalogue.rate_limited.detail, status_code: 429 },
  unavailable: { detail: errorCatalogue.unavailable.detail, status_code: 503 },
  internal: { detail: errorCatalogue.internal.detail, status_code: 500 },
};

const errorSchemas = {
  DetailError: {
    type: 'object',
    required: ['detail', 'status_code'],
    properties: { detail: { type: 'string' }, status_code: { type: 'integer' } },
    description: 'Authentication, limits and other generic errors.',
  },
  ValidationError: {
    type: 'object',
    required: ['error_key'],
    properties: { detail: { type: 'string' }, error_key: { const: 'validation_error' } },
    additionalProperties: {
      description: 'A failing field: a list of messages, or for nested objects and lists, nested errors.',
      oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object' }],
    },
    description: 'Every failing field at once, or a `detail` for a request that cannot be done.',
  },
  PageError: { type: 'object', required: ['detail'], properties: { detail: { const: 'Invalid page.' } } },
};

function errorSchemaRef(code: ErrorCode): string {
  if (code === 'invalid_page') return '#/components/schemas/PageError';
  return errorCatalogue[code].shape === 'error_key' ? '#/components/schemas/ValidationError' : '#/components/schemas/DetailError';
}

function errorResponses(codes: ErrorCode[]): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorCatalogue[code].status, [...(byStatus.get(errorCatalogue[code].status) ?? []), code]);
  const responses: Record<string, Schema> = {};
  for (const [status, list] of byStatus) {
    const refs = [...new Set(list.map(errorSchemaRef))];
    responses[String(status)] = {
      description: list.map((c) => c.replace(/_/g, ' ')).join('; '),
      content: {
        'application/json': {
          schema: refs.length === 1 ? { $ref: refs[0] } : { oneOf: refs.map(($ref) => ({ $ref })) },
          examples: Object.fromEntries(list.map((c) => [c, { value: errorExamples[c] }])),
        },
      },
    };
  }
  return responses;
}

/** JSON Schema as OpenAPI 3.1 takes it: plain data, without our validator's hidden field. */
const plain = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema));

function operation(route: RouteOptions): Schema {
  const schema = (route.schema ?? {}) as Schema & { body?: Schema; querystring?: Schema; params?: Schema; response?: Record<string, Schema> };
  // eSewa's door is public (no key) and answers its errors in eSewa's shapes, which its own schemas describe.
  const esewa = route.config?.esewa === true;
  const errors: ErrorCode[] = esewa
    ? []
    : [...commonApiErrors, ...(schema.body ? bodyErrors : []), ...(route.config?.errors ?? []), ...(route.config?.idempotent ? (['conflict'] as ErrorCode[]) : [])];
  const parameters: Schema[] = [];
  for (const [where, part] of [['query', schema.querystring], ['path', schema.params]] as const) {
    const properties = (part?.properties ?? {}) as Record<string, Schema>;
    const required = (part?.required ?? []) as string[];
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({ name, in: where, required: where === 'path' || required.includes(name), schema: plain(property), ...(property.description ? { description: property.description } : {}) });
    }
  }
  if (route.config?.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: 'Retries with the same key and body replay the first response for 24 hours; another body with the key is a 409.',
    });
  }
  const responses: Record<string, Schema> = {};
  for (const [status, response] of Object.entries(schema.response ?? {})) {
    const { description, examples, ...body } = plain(response);
    const shown = Array.isArray(examples) ? { examples: Object.fromEntries(examples.map((value, i) => [`example${i + 1}`, { value }])) } : {};
    responses[status] = { description: (description as string) ?? 'Success', content: { 'application/json': { schema: body, ...shown } } };
  }
  for (const [status, response] of Object.entries(errorResponses(errors))) {
    if (responses[status]) {
      const existing = (responses[status].content as Record<string, Schema>)['application/json'];
      const extra = (response.content as Record<string, Schema>)['application/json'];
      existing.schema = { oneOf: [existing.schema, extra.schema] };
      existing.examples = extra.examples;
      responses[status].description = `${responses[status].description}; ${response.description}`;
    } else {
      responses[status] = response;
    }
  }
  const body = schema.body ? plain(schema.body) : undefined;
  return {
    summary: schema.summary,
    ...(schema.description ? { description: schema.description } : {}),
    operationId: schema.operationId,
    security: esewa ? [] : [{ secretKey: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: body, ...(body.examples ? { examples: Object.fromEntries((body.examples as unknown[]).map((v, i) => [`example${i + 1}`, { value: v }])) } : {}) },
              'application/x-www-form-urlencoded': { schema: body },
            },
          },
        }
      : {}),
    responses,
  };
}

/** `/api/merchant-transaction/:transaction_id/refund/` → `/api/merchant-transaction/{transaction_id}/refund/` */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

export function buildOpenApi(routes: RouteOptions[], options: { publicUrl: string; version: string }): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      (paths[openApiPath(route.url)] ??= {})[method.toLowerCase()] = operation(route);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bhuktani API',
      version: options.version,
      description:
        'Hosted web checkout, wire-compatible with the v2 web-checkout API of the gateway it copies. Amounts are integers in paisa. ' +
        'Authenticate with `Authorization: Key <secret key>`; a test key works on sandbox data, a live key on production data.',
    },
    servers: [{ url: options.publicUrl }],
    components: {
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The word `Key`, a space, then a secret key: `Key test_secret_key_…`.' },
      },
      schemas: errorSchemas,
    },
    paths,
  };
}
