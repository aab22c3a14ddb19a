// A proxy of the tests' own between Bhuktani and a provider's server: each request goes through
// untouched or meets a fault, as networks and upstreams misbehave. delay: the answer comes after the
// caller has given up (the upstream acted); drop: the request never reaches the upstream;
// lose: the upstream acted and its answer is lost; cut: half an answer, then the connection closes;
// duplicate: the upstream gets the request twice; corrupt: the answer is HTML, or JSON for another
// payment or amount (`forge` says how, in the upstream's own shape: Khalti's lookup unless told).
// A closed upstream (killed) is a connection the proxy cannot make: it drops.
// `asKhalti`: the upstream (a Bhuktani) answers as Khalti publishes it does: the proxy takes off the
// Idempotency-Key Khalti does not document, and the `refunded_amount` its lookup does not carry.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const faults = ['none', 'delay', 'drop', 'lose', 'cut', 'duplicate', 'corrupt'] as const;
export type Fault = (typeof faults)[number];

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(port: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, host: `127.0.0.1:${port}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A success that is not this payment's, in the upstream's own shape, made from its answer to `path`;
 * undefined when the answer has no such shape (it is then cut in half).
 */
export type Forgery = (answer: { path: string; body: string }, random: () => number) => string | undefined;

/** Khalti's lookup: Completed for another amount, or for another pidx. */
const khaltiForgery: Forgery = ({ body }, random) => {
  try {
    const json = JSON.parse(body);
    return JSON.stringify(random() < 0.5 ? { ...json, status: 'Completed', total_amount: Number(json.total_amount ?? 0) + 100, transaction_id: 'FORGED' } : { ...json, status: 'Completed', pidx: 'someone-elses-pidx', transaction_id: 'FORGED' });
  } catch {
    return undefined;
  }
};

function corrupted(answer: Upstream, path: string, random: () => number, forge: Forgery): Upstream {
  if (random() < 0.5) return { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html><body><h1>502 Bad Gateway</h1></body></html>') };
  const forged = forge({ path, body: answer.body.toString('utf8') }, random);
  if (forged === undefined) return { ...answer, body: answer.body.subarray(0, Math.floor(answer.body.length / 2)) };
  return { status: 200, headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') }, body: Buffer.from(forged) };
}

/** A request as the proxy sees it, for a `pick` that treats some requests alone. */
export interface ProxiedRequest {
  method: string;
  path: string;
}

export interface FaultProxy {
  base: string;
  /** How the next requests are treated; `pick` is asked once per request. */
  setFaults(pick: (request: ProxiedRequest) => Fault): void;
  /** Requests seen per fault. */
  counts: Record<Fault, number>;
  close(): Promise<void>;
}

/** Khalti's lookup answer: Bhuktani's without the `refunded_amount` it adds. */
function khaltiShaped(answer: Upstream): Upstream {
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json')) return answer;
  try {
    const { refunded_amount: _, ...json } = JSON.parse(answer.body.toString('utf8'));
    return { ...answer, body: Buffer.from(JSON.stringify(json)) };
  } catch {
    return answer;
  }
}

export async function startFaultProxy(options: { upstreamPort: number; delayMs: number; random: () => number; asKhalti?: boolean; forge?: Forgery }): Promise<FaultProxy> {
  let pick: (request: ProxiedRequest) => Fault = () => 'none';
  const counts = Object.fromEntries(faults.map((f) => [f, 0])) as Record<Fault, number>;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const fault = pick({ method: request.method ?? 'GET', path: request.url ?? '/' });
      counts[fault]++;
      const body = Buffer.concat(chunks);
      if (options.asKhalti) delete request.headers['idempotency-key'];
      const send = (answer: Upstream) => {
        const { 'transfer-encoding': _, connection: __, 'content-length': ___, ...headers } = answer.headers;
        response.writeHead(answer.status, { ...headers, 'content-length': answer.body.length });
        response.end(answer.body);
      };
      try {
        if (fault === 'drop') return response.socket?.destroy();
        const path = request.url ?? '/';
        if (fault === 'duplicate') await forward(options.upstreamPort, request.method!, path, request.headers, body).catch(() => undefined);
        const forwarded = await forward(options.upstreamPort, request.method!, path, request.headers, body);
        const answer = options.asKhalti ? khaltiShaped(forwarded) : forwarded;
        if (fault === 'lose') return response.socket?.destroy();
        if (fault === 'delay') await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (fault === 'cut') {
          response.writeHead(answer.status, { 'content-type': String(answer.headers['content-type'] ?? ''), 'content-length': answer.body.length });
          response.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
          return setTimeout(() => response.socket?.destroy(), 20);
        }
        send(fault === 'corrupt' ? corrupted(answer, path, options.random, options.forge ?? khaltiForgery) : answer);
      } catch {
        // The upstream is down: the caller sees a connection closed without an answer.
        response.socket?.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setFaults: (next) => (pick = next),
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
