// The data directory lock between real processes: one winner of any race, freed by its holder's
// death even while the dead holder is a zombie, and deaf to whatever process now has a recorded pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiled } from '../../test/compiled.js';
import { tempDir } from '../../test/processes.js';
import { DataDirBusyError, lockDataDir } from './data-dir-lock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOLDER = 'test/data-dir-lock-holder.ts';
const onLinux = process.platform === 'linux';

const children: ChildProcess[] = [];
const dirs: { remove(): void }[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) dir.remove();
});

function freshDir(): string {
  const dir = tempDir('bhuktani-lock-');
  dirs.push(dir);
  return dir.path;
}

/** A child process and the lines it writes, one at a time. */
function lines(child: ChildProcess): () => Promise<string> {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => (waiting.length ? waiting.shift()!(line) : queue.push(line)));
  return () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

function spawnHolder(args: string[] = []) {
  const child = spawn(process.execPath, [compiled(HOLDER), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  return { child, next: lines(child) };
}

/** The state letter of /proc/<pid>/stat: R, S, … or Z for a zombie. */
function processState(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return undefined;
  }
}

describe('the data directory lock', () => {
  it('refuses while a live process holds the directory, naming it', async () => {
    const dir = freshDir();
    const holder = spawnHolder([dir]);
    expect(await holder.next()).toBe(`locked ${holder.child.pid}`);
    const refused = lockDataDir(dir, 'command');
    await expect(refused).rejects.toThrow(DataDirBusyError);
    await expect(refused).rejects.toThrow(`is in use by a server (pid ${holder.child.pid})`);
    holder.child.kill('SIGKILL');
  });

  it('of several processes racing for one free directory, exactly one wins, round after round', async () => {
    const racers = Array.from({ length: 4 }, () => spawnHolder());
    for (let round = 0; round < 25; round++) {
      const dir = freshDir();
      for (const racer of racers) racer.child.stdin!.write(`lock ${dir}\n`);
      const answers = await Promise.all(racers.map((racer) => racer.next()));
      expect(answers.filter((answer) => answer === 'won'), `round ${round}: ${answers}`).toHaveLength(1);
      expect(answers.filter((answer) => answer === 'busy')).toHaveLength(racers.length - 1);
      for (const racer of racers) racer.child.stdin!.write('release\n');
      expect(await Promise.all(racers.map((racer) => racer.next()))).toStrictEqual(racers.map(() => 'released'));
    }
    for (const racer of racers) racer.child.stdin!.end();
  }, 60_000);

  it.skipIf(!onLinux)('is free as soon as its holder is killed, while the holder is still a zombie', async () => {
    const dir = freshDir();
    // `sleep` becomes the holder's parent and never reaps it: the killed holder stays a zombie.
    const parent = spawn('sh', ['-c', `"${process.execPath}" ${compiled(HOLDER)} "${dir}" & exec sleep 60`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(parent);
    const locked = await lines(parent)();
    const pid = Number(/^locked (\d+)$/.exec(locked)?.[1]);
    await expect(lockDataDir(dir, 'server')).rejects.toThrow(DataDirBusyError);

    process.kill(pid, 'SIGKILL');
    while (processState(pid) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 5));
    const release = await lockDataDir(dir, 'server');
    expect(processState(pid)).toBe('Z');
    expect(JSON.parse(readFileSync(join(dir, 'bhuktani.lock'), 'utf8'))).toStrictEqual({ pid: process.pid, holder: 'server' });
    release();
    parent.kill('SIGKILL');
  });

  it.skipIf(!onLinux)('takes over a lock file naming a live process that does not hold the directory', async () => {
    const dir = freshDir();
    const unrelated = spawn('sleep', ['60']);
    children.push(unrelated);
    writeFileSync(join(dir, 'bhuktani.lock'), JSON.stringify({ pid: unrelated.pid, holder: 'server' }));
    const release = await lockDataDir(dir, 'server');
    // Still alive (running, sleeping, or waiting on the disk of a loaded machine), not a zombie.
    expect(['R', 'S', 'D']).toContain(processState(unrelated.pid!));
    expect(JSON.parse(readFileSync(join(dir, 'bhuktani.lock'), 'utf8'))).toStrictEqual({ pid: process.pid, holder: 'server' });
    release();
    unrelated.kill('SIGKILL');
  });
});
