// The stylesheets and scripts of the pages, shipped with the service (nothing is loaded from another
// host), read once. Pages link each by its fingerprinted address (`assetUrl`: the name and the first
// hex of its content's SHA-256), which browsers may keep a year: a new release links new addresses.
// Each is sent compressed when the browser takes it (brotli, else gzip), compressed once at first ask.
// Pages themselves are never compressed: they carry CSRF tokens beside what others can put in them,
// which a compressed length would leak (BREACH); an asset holds nothing of anyone's.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

const ASSET_DIR = new URL('../../assets/', import.meta.url);
const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml' };
const A_YEAR = 'public, max-age=31536000, immutable';
const AN_HOUR = 'public, max-age=3600';

type Encoding = 'br' | 'gzip';

interface Asset {
  body: Buffer;
  type: string;
  /** Its fingerprinted name: `portal.1a2b3c4d5e.css`. */
  fingerprinted: string;
  compressed: Partial<Record<Encoding, Buffer>>;
}

const assets = new Map<string, Asset>();
for (const name of readdirSync(ASSET_DIR)) {
  const dot = name.lastIndexOf('.');
  const type = TYPES[name.slice(dot)];
  if (!type) continue;
  const body = readFileSync(new URL(name, ASSET_DIR));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  assets.set(name, { body, type, fingerprinted: `${name.slice(0, dot)}.${hash}${name.slice(dot)}`, compressed: {} });
}
const byFingerprint = new Map([...assets.values()].map((asset) => [asset.fingerprinted, asset]));

/** The address a page links `name` (a file of assets/) by: fingerprinted, so it may be cached for a year. */
export function assetUrl(name: string): string {
  const asset = assets.get(name);
  if (!asset) throw new Error(`no asset ${name}`);
  return `/assets/${asset.fingerprinted}`;
}

/** The first encoding of brotli and gzip that `accepted` (an Accept-Encoding header) takes, by its q-values. */
export function chosenEncoding(accepted: string | undefined): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of (accepted ?? '').toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (token) weights.set(token.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  return (['br', 'gzip'] as const).find((encoding) => weight(encoding) > 0);
}

function compressed(asset: Asset, encoding: Encoding): Buffer {
  return (asset.compressed[encoding] ??=
    encoding === 'br' ? brotliCompressSync(asset.body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.length } }) : gzipSync(asset.body, { level: 9 }));
}

function send(reply: FastifyReply, asset: Asset, cacheControl: string, accepted: string | undefined) {
  reply.type(asset.type).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding');
  const encoding = chosenEncoding(accepted);
  if (!encoding) return reply.send(asset.body);
  return reply.header('content-encoding', encoding).send(compressed(asset, encoding));
}

export function registerAssets(app: FastifyInstance) {
  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const accepted = request.headers['accept-encoding'];
    const fingerprinted = byFingerprint.get(name);
    if (fingerprinted) return send(reply, fingerprinted, A_YEAR, accepted);
    // By its plain name (a link of one's own): an hour.
    const plain = assets.get(name);
    if (plain) return send(reply, plain, AN_HOUR, accepted);
    // By another release's fingerprint (a page of an instance not yet upgraded, behind the same
    // balancer): this release's, never kept, rather than a page without its style.
    const other = assets.get(name.replace(/\.[0-9a-f]{10}(\.\w+)$/, '$1'));
    if (other) return send(reply, other, 'no-cache', accepted);
    return reply.code(404).type('text/plain').send('Not found');
  });
}
