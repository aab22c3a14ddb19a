// A process that takes the data directory lock, for the lock's tests. With a directory argument it
// locks it at once and holds it until killed. Without, it waits for lines on standard input:
// `lock <dir>` answers `won` or `busy`, `release` lets go; so one set of processes races many rounds.
import { createInterface } from 'node:readline';
import { DataDirBusyError, lockDataDir } from '../src/db/data-dir-lock.js';

const held = process.argv[2];
if (held) {
  await lockDataDir(held, 'server');
  console.log(`locked ${process.pid}`);
  setInterval(() => {}, 60_000);
} else {
  let release: (() => void) | undefined;
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, dir] = line.split(' ');
    if (command === 'lock') {
      try {
        release = await lockDataDir(dir, 'command');
        console.log('won');
      } catch (error) {
        if (!(error instanceof DataDirBusyError)) throw error;
        console.log('busy');
      }
    } else if (command === 'release') {
      release?.();
      release = undefined;
      console.log('released');
    }
  }
}
