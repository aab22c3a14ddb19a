// A merchant's webhook endpoint (or an SMS gateway) on loopback: records every request, answers
// what the test says, or holds the request unanswered to play a gateway that hangs.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** The path and query asked for. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function webhookReceiver() {
  const received: Received[] = [];
  let answer: number | 'none' = 200;
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (answer === 'none') held.push(response);
      else response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'broken');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** A status for every request from now on, or `none`: no answer at all. */
    answerWith(status: number | 'none') {
      answer = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held.splice(0)) response.destroy();
        server.close(() => resolve());
      }),
  };
}
