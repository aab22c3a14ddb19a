// One HTTP POST of a webhook. The address check happens in the socket's own DNS lookup, so a host
// that resolves to a private address at connect time (DNS rebinding) is refused too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from './delivery-rules.js';

export interface PostResult {
  status?: number;
  body?: string;
  error?: string;
}

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 2048;

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const blocked = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (blocked) return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

export function postWebhook(url: string, body: string, headers: Record<string, string>, options: { allowPrivate: boolean }): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: 'invalid URL' });
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && /^[\d.]+$|:/.test(literal) && isPrivateAddress(literal)) {
      return resolve({ error: `${literal} is a private address` });
    }
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Bhuktani-Webhooks/1', ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(options.allowPrivate),
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES) }));
        response.on('error', (error) => resolve({ status: response.statusCode, error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(body);
  });
}
