// multipart/form-data bodies (PHP's curl posts an array so), read as a form-encoded body is: within
// BODY_LIMIT_BYTES (Fastify reads the body whole first, as for a form), each field as text, a field
// given twice as a list of its values, so the routes check them as they check a form's. A file part
// is refused: no route takes one.
import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

type Fields = Record<string, string | string[]>;

function readMultipart(request: FastifyRequest, body: Buffer): Promise<Fields> {
  return new Promise((resolve, reject) => {
    // No prototype: a field named __proto__ is a field like any other.
    const fields: Fields = Object.create(null);
    let refused: AppError | undefined;
    let parser;
    try {
      // The whole body is within the limit already: no field is cut short.
      parser = Busboy({ headers: request.headers as { 'content-type': string }, limits: { fieldSize: body.length, fieldNameSize: body.length } });
    } catch (error) {
      reject(new AppError('bad_request', { detail: `Malformed multipart/form-data body: ${(error as Error).message}` }));
      return;
    }
    parser.on('field', (name, value) => {
      const given = fields[name];
      fields[name] = given === undefined ? value : [...(Array.isArray(given) ? given : [given]), value];
    });
    parser.on('file', (_name, stream) => {
      refused ??= new AppError('unsupported_media_type', { detail: 'A multipart/form-data body may hold only text fields, not files.' });
      stream.resume();
    });
    parser.on('error', (error: Error) => reject(new AppError('bad_request', { detail: `Malformed multipart/form-data body: ${error.message}` })));
    parser.on('finish', () => (refused ? reject(refused) : resolve(fields)));
    parser.end(body);
  });
}

/** Accept multipart/form-data bodies on the routes of `app` (a plugin's own routes). */
export function acceptMultipart(app: FastifyInstance) {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer) => readMultipart(request, body));
}
