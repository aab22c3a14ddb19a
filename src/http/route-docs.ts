// What a route tells OpenAPI beyond its schemas: the errors it can answer.
import type { ErrorCode } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catalogue errors this route may answer, besides those every API route may. */
    errors?: ErrorCode[];
  }
}

/** Every API route may answer these. */
export const commonApiErrors: ErrorCode[] = ['not_authenticated', 'invalid_token', 'forbidden', 'rate_limited', 'unavailable'];
/** Every route with a body may answer these too. */
export const bodyErrors: ErrorCode[] = ['validation_error', 'json_parse_error', 'payload_too_large', 'unsupported_media_type'];
