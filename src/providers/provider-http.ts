// How Bhuktani talks to a provider's server. A provider's answer is input: it must arrive within
// PROVIDER_TIMEOUT_MS (body included, so an answer that never ends is given up), be at most 1 MB (a
// 100 MB body is cut off, not read), and be JSON where JSON is expected. Anything else is a
// TransportError, which the connectors turn into an unknown outcome. Calls to the sandbox's
// simulators of the same app go to it in process, so the sandbox works whatever PUBLIC_URL is.
import type { FastifyInstance } from 'fastify';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

/** The largest answer a provider's call takes; a caller whose answers are larger by design says so (NPI's reports of 10,000-transaction batches). */
export const MAX_ANSWER_BYTES = 1_000_000;

// Connections kept alive between calls, as a browser keeps them; an idle one is closed after 4 s,
// before a server's usual 5 s would close it under a request.
const agents: Record<string, HttpAgent> = { 'http:': new HttpAgent({ keepAlive: true, timeout: 4000 }), 'https:': new HttpsAgent({ keepAlive: true, timeout: 4000 }) };

const reasonOf = (error: Error) => `no answer (${(error as NodeJS.ErrnoException).code ?? error.message})`;

/**
 * A call over node:http(s), with the whole exchange (the body's last byte included) bounded by
 * `timeoutMs`; redirects are not followed. (fetch did the same at about six times the CPU per call:
 * 0.31 ms against 0.05 ms on loopback here.)
 */
export function networkTransport(timeoutMs: number, maxAnswerBytes = MAX_ANSWER_BYTES): Transport {
  return (request) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
      const agent = url && agents[url.protocol];
      if (!url || !agent) return reject(new TransportError(`no answer (${request.url.slice(0, 40)} is no http(s) address)`));
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers = { accept: '*/*', 'user-agent': 'Bhuktani', ...request.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) };
      let outgoing: ClientRequest | undefined;
      const fail = (reason: string) => {
        clearTimeout(timer);
        outgoing?.destroy();
        reject(new TransportError(reason));
      };
      const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
      const answered = (response: IncomingMessage) => {
        const declared = Number(response.headers['content-length'] ?? '0');
        if (declared > maxAnswerBytes) return fail(`answer of ${declared} bytes refused`);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxAnswerBytes) return fail(`answer over ${maxAnswerBytes} bytes refused`);
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', (error) => fail(reasonOf(error)));
        response.on('close', () => {
          if (!response.complete) fail('no answer (cut off)');
        });
      };
      try {
        outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: request.method, agent, headers }, answered);
      } catch (error) {
        // A header Node refuses to send (a line break in a value, say): nothing left this instance.
        return fail(reasonOf(error as Error));
      }
      outgoing.on('error', (error) => fail(reasonOf(error)));
      outgoing.end(body);
    });
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const sandboxes = new WeakMap<object, { app: FastifyInstance; prefix: string }>();
const routed = new WeakMap<object, Transport>();

/**
 * Puts `transport` between `owner`'s connectors and every provider, in place of the network and the
 * in-process simulators: the fault simulator's boundary (test/faults/); undefined takes it away.
 */
export function routeProviderCalls(owner: object, transport: Transport | undefined): void {
  if (transport) routed.set(owner, transport);
  else routed.delete(owner);
}

/** Lets the transport of `owner` (the app's context) reach the simulators of `app` in process. */
export function serveSandboxInProcess(owner: object, app: FastifyInstance, publicUrl: string): void {
  sandboxes.set(owner, { app, prefix: `${publicUrl}/sandbox/` });
}

/** The transport of `owner`: in process to its own simulators, the network to everything else. */
export function transportFor(owner: object, timeoutMs: number, maxAnswerBytes = MAX_ANSWER_BYTES): Transport {
  const network = networkTransport(timeoutMs, maxAnswerBytes);
  return async (request) => {
    const route = routed.get(owner);
    if (route) return route(request);
    const sandbox = sandboxes.get(owner);
    if (!sandbox || !request.url.startsWith(sandbox.prefix)) return network(request);
    const url = new URL(request.url);
    const answer = await withTimeout(
      sandbox.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body }),
      timeoutMs,
    );
    if (answer.rawPayload.byteLength > maxAnswerBytes) throw new TransportError('answer too large');
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
