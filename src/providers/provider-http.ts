// How Bhuktani talks to a provider's server. A provider's answer is input: it must arrive within
// PROVIDER_TIMEOUT_MS (body included, so an answer that never ends is given up), be at most 1 MB (a
// 100 MB body is cut off, not read), and be JSON where JSON is expected. Anything else is a
// TransportError, which the connectors turn into an unknown outcome. Calls to the sandbox's
// simulators of the same app go to it in process, so the sandbox works whatever PUBLIC_URL is.
import type { FastifyInstance } from 'fastify';

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

export type Transport = (request: HttpRequest) => Promise<HttpAnswer>;

export class TransportError extends Error {}

export const MAX_ANSWER_BYTES = 1_000_000;

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) throw new TransportError(`answer of ${declared} bytes refused`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new TransportError(`answer over ${MAX_ANSWER_BYTES} bytes refused`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** fetch, with the whole exchange (the body's last byte included) bounded by `timeoutMs`. */
export function fetchTransport(timeoutMs: number): Transport {
  return async (request) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal, redirect: 'manual' });
      const text = await readLimited(response);
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : `no answer (${(error as Error).cause ? String((error as { cause: { code?: string } }).cause.code ?? (error as Error).message) : (error as Error).message})`;
      throw new TransportError(reason);
    }
  };
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const sandboxes = new WeakMap<object, { app: FastifyInstance; prefix: string }>();

/** Lets the transport of `owner` (the app's context) reach the simulators of `app` in process. */
export function serveSandboxInProcess(owner: object, app: FastifyInstance, publicUrl: string): void {
  sandboxes.set(owner, { app, prefix: `${publicUrl}/sandbox/` });
}

/** The transport of `owner`: in process to its own simulators, fetch to everything else. */
export function transportFor(owner: object, timeoutMs: number): Transport {
  const network = fetchTransport(timeoutMs);
  return async (request) => {
    const sandbox = sandboxes.get(owner);
    if (!sandbox || !request.url.startsWith(sandbox.prefix)) return network(request);
    const url = new URL(request.url);
    const answer = await withTimeout(
      sandbox.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body }),
      timeoutMs,
    );
    if (answer.rawPayload.byteLength > MAX_ANSWER_BYTES) throw new TransportError('answer too large');
    return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
  };
}

/** The answer's JSON object; a TransportError for HTML, garbage or anything but an object. */
export function jsonOf(answer: HttpAnswer): Record<string, unknown> {
  if (!/^application\/json\b/i.test(answer.contentType)) throw new TransportError(`answer ${answer.status} is ${answer.contentType || 'untyped'}, not JSON`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    throw new TransportError(`answer ${answer.status} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TransportError(`answer ${answer.status} is not a JSON object`);
  return parsed as Record<string, unknown>;
}
