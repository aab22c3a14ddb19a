// `npm run dev` serves the sources themselves (tsx, no bundle), on the embedded store, and stops
// cleanly; tsx's watch starts it again when a file it loaded changes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, tempDir } from '../test/processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dataDir = tempDir('bhuktani-dev-');
afterAll(() => dataDir.remove());

describe('npm run dev', () => {
  it('serves the sources on the embedded store, and stops on SIGTERM', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir.path, LOG_FORMAT: 'json' };
    delete env.DATABASE_URL;
    // Its own process group: npm, tsx's watcher and the server are stopped together.
    const child = spawn('npm', ['run', 'dev', '--silent'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    // 'close': every process writing to its pipes (npm, tsx, the server) has ended.
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    try {
      await expect.poll(() => output.includes('Bhuktani is ready'), { timeout: 60_000, interval: 200 }).toBe(true);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      // The sources, not the bundle: no code cache or bundle is read.
      expect(output).not.toContain('dist/bundle');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    expect(output).toContain('"msg":"stopped"');
  }, 90_000);
});
