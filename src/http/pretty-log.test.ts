// The log's two formats: readable lines on a terminal (or LOG_FORMAT=pretty), JSON otherwise, and
// secrets censored in both.
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, tempDir, type ServerProcess } from '../../test/processes.js';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from './logger.js';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => void (chunks.push(String(chunk)), done()) });
  return { stream, text: () => chunks.join('') };
}

const SECRET = 'test_secret_key_0123456789abcdef';
const request = { id: 'req-1', method: 'POST', url: '/api/v2/epayment/initiate/', ip: '127.0.0.1', headers: { authorization: `Key ${SECRET}`, 'user-agent': 'shop/1.0' } };

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON otherwise, unless chosen', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' }, false)).toThrow(new ConfigError('LOG_FORMAT must be one of json, pretty, got "yaml"'));
  });
});

describe('a log entry', () => {
  it('in the pretty format is one line: time, level, message, fields, and no secret', () => {
    const out = capture();
    createLogger({ logLevel: 'info', logFormat: 'pretty' }, out.stream).info({ req: request, pidx: 'abc123' }, 'incoming request');
    const line = out.text();
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}INFO {2}incoming request {2}/);
    expect(line).toContain('pidx=abc123');
    expect(line).toContain('"method":"POST"');
    expect(line).toContain('"authorization":"[redacted]"');
    expect(line).not.toContain(SECRET);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
  });

  it('in the JSON format is pino\'s JSON, secrets censored', () => {
    const out = capture();
    createLogger({ logLevel: 'info', logFormat: 'json' }, out.stream).info({ req: request }, 'incoming request');
    const entry = JSON.parse(out.text());
    expect(entry).toMatchObject({ level: 30, msg: 'incoming request', req: { headers: { authorization: '[redacted]' } } });
    expect(out.text()).not.toContain(SECRET);
  });
});

describe('the server with LOG_FORMAT=pretty', () => {
  const dir = tempDir('bhuktani-pretty-');
  let server: ServerProcess | undefined;
  afterAll(() => {
    server?.kill();
    dir.remove();
  });

  it('prints readable lines, the demo shop\'s address and key on one of them (the shop open from the first request)', async () => {
    const port = await freePort();
    server = await startServer({ DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'pretty' });
    // The demo merchant is made once the server listens: the shop's first page, asked at once, waits for it.
    const shop = await fetch(`http://127.0.0.1:${port}/demo`);
    expect(shop.status).toBe(200);
    expect(await shop.text()).toContain('Ilam First Flush');
    const demoLine = () => server!.output().split('\n').find((line) => line.includes('Demo shop'));
    while (!demoLine()) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(demoLine()).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} {2}INFO {2}Demo shop: open http://localhost:${port}/demo — sandbox key of ".+": test_secret_key_\\w+$`));
    expect(server.output()).toMatch(/INFO {2}Bhuktani is ready {2}publicUrl=/);
    expect(server.output()).not.toContain('{"level"');
    expect(await server.stop()).toBe(0);
  }, 120_000);
});
