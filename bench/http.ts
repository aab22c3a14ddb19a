// A small keep-alive HTTP client for set-up steps and for the runs autocannon cannot drive
// (per-payer sequences, sequential list pages).
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

export function client(port: number, maxSockets = 64) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const send = (method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const headers: Record<string, string | number> = { ...options.headers };
      if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
      const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(options.body);
    });
  return {
    send,
    json: (method: string, path: string, key: string, body?: unknown) =>
      send(method, path, {
        headers: { authorization: `Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    close: () => agent.destroy(),
  };
}

export type Client = ReturnType<typeof client>;

/** Runs `work` over `items` with at most `limit` at once. */
export async function inParallel<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}
