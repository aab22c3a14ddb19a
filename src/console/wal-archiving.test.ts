// PostgreSQL's WAL archive, as operators are told of it: the overview says when it is off (no
// point-in-time recovery) or failing, and /metrics carries bhuktani_wal_archive_failing. The
// embedded store has no WAL archive (its backups are `bhuktani backup`): neither says anything there.
// CI's PostgreSQL runs with archive_mode off; a failing archive is read from pg_stat_archiver's row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOperator, operatorBrowser } from '../../test/console-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { archivingOf } from '../db/wal-archiving-store.js';

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { metricsToken: TOKEN } });
});
afterAll(() => t?.close());

describe('the WAL archive, told to operators', () => {
  it('reads pg_stat_archiver: off, archiving, failing after its last success, and archiving again', () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 10, minute));
    const row = { mode: 'on', archived_count: '12', failed_count: '0', last_archived_time: at(5), last_failed_time: null };
    expect(archivingOf({ ...row, mode: 'off' })).toEqual({ state: 'off' });
    expect(archivingOf(row)).toMatchObject({ state: 'archiving', archived: 12, failed: 0 });
    expect(archivingOf({ ...row, failed_count: 3, last_failed_time: at(7) })).toMatchObject({ state: 'failing', failed: 3, lastFailedAt: at(7) });
    expect(archivingOf({ ...row, failed_count: 3, last_failed_time: at(4) }).state).toBe('archiving');
    expect(archivingOf({ ...row, last_archived_time: null, failed_count: 1, last_failed_time: at(1) }).state).toBe('failing');
  });

  it("shows the archive's state on the overview and in /metrics on PostgreSQL, and nothing on the embedded store", async () => {
    const browser = operatorBrowser(t.app, t.ctx);
    expect((await browser.signIn(await newOperator(t.ctx, 'support'))).status).toBe(303);
    const overview = (await browser.get('/console')).body;
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    if (t.ctx.db.kind === 'postgres') {
      expect(overview).toMatch(/WAL archiving \(no point-in-time recovery: docs\/deploy\.md\)<\/dt><dd data-figure="wal-archiving" class="status-bad">off</);
      expect(metrics).toMatch(/^bhuktani_wal_archive_failing -1$/m);
    } else {
      expect(overview).not.toContain('wal-archiving');
      expect(metrics).not.toContain('bhuktani_wal_archive_failing');
    }
  });
});
