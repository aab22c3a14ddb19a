// deploy/'s backup units as systemd reads them: the backup service (as its two instances, full and
// diff) and the two timers pass `systemd-analyze verify`, each timer starts the instance it names, and
// their calendars fall where docs/deploy.md says: full backups on Sundays at 01:00, differential ones
// Monday to Saturday at 01:00. No machine here runs systemd as its init, so the timers cannot fire
// here: this is what can be held of them short of that.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { installPackages } from './cluster.js';

const UNITS = fileURLToPath(new URL('../../deploy/systemd/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bhuktani-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const setting = (unit: string, name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(readFileSync(join(UNITS, unit), 'utf8'))?.[1];

describe("deploy/'s pgBackRest units", () => {
  it('pass systemd-analyze verify, as the two instances the timers start', () => {
    installPackages();
    for (const type of ['full', 'diff']) copyFileSync(join(UNITS, 'pgbackrest-backup@.service'), join(dir, `pgbackrest-backup@${type}.service`));
    for (const timer of ['pgbackrest-backup-full.timer', 'pgbackrest-backup-diff.timer']) copyFileSync(join(UNITS, timer), join(dir, timer));
    const files = ['pgbackrest-backup@full.service', 'pgbackrest-backup@diff.service', 'pgbackrest-backup-full.timer', 'pgbackrest-backup-diff.timer'].map((f) => join(dir, f));
    // Exit 0 and nothing said on either stream: no unknown setting, no bad value, the timers' units found.
    const verified = spawnSync('systemd-analyze', ['verify', '--man=no', ...files], { encoding: 'utf8' });
    expect([verified.status, verified.stdout, verified.stderr]).toEqual([0, '', '']);
    expect(setting('pgbackrest-backup-full.timer', 'Unit')).toBe('pgbackrest-backup@full.service');
    expect(setting('pgbackrest-backup-diff.timer', 'Unit')).toBe('pgbackrest-backup@diff.service');
    expect(setting('pgbackrest-backup@.service', 'ExecStart')).toBe('/usr/bin/pgbackrest --stanza=bhuktani --type=%i backup');
  });

  it('fire a full backup on Sundays and a differential one on the other days, at 01:00', () => {
    const next = (timer: string) =>
      execFileSync('systemd-analyze', ['calendar', '--iterations=7', setting(timer, 'OnCalendar')!], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } })
        .split('\n')
        .filter((line) => /Next elapse:|Iter\. #\d+:/.test(line))
        .map((line) => line.replace(/^.*?:\s+/, '').trim());
    const full = next('pgbackrest-backup-full.timer');
    const diff = next('pgbackrest-backup-diff.timer');
    expect(full).toHaveLength(7);
    expect(diff).toHaveLength(7);
    for (const at of full) expect(at).toMatch(/^Sun \d{4}-\d{2}-\d{2} 01:00:00 /);
    for (const at of diff) expect(at).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat) \d{4}-\d{2}-\d{2} 01:00:00 /);
    // Six differential backups between two full ones.
    expect(new Set(diff.map((at) => at.slice(0, 3))).size).toBe(6);
  });
});
