import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { openTestDb } from '../../test/test-app.js';
import { CLI_ACTOR } from './audit-entry.js';
import { appendAudit, listAudit } from './audit-store.js';

describe('the audit log', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  const object = { type: 'merchant' as const, id: `m-${process.pid}-${Date.now()}` };

  it('keeps each entry as written, newest first, filtered by object, action and operator', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    await db.transaction(async (tx) => {
      await appendAudit(tx, { now, actor: CLI_ACTOR, action: 'merchant.approve', object, environment: 'live', before: { status: 'applied' }, after: { status: 'approved' } });
      await appendAudit(tx, { now, actor: { kind: 'operator', id: 4242, label: 'ops@example.com' }, action: 'merchant.suspend', object, reason: 'chargebacks' });
    });
    const entries = await listAudit(db, { objectType: 'merchant', objectId: object.id, limit: 10 });
    expect(entries.map((e) => e.action)).toEqual(['merchant.suspend', 'merchant.approve']);
    expect(entries[0]).toMatchObject({ actor: { kind: 'operator', id: 4242, label: 'ops@example.com' }, reason: 'chargebacks' });
    expect(entries[1]).toMatchObject({ actor: CLI_ACTOR, environment: 'live', before: { status: 'applied' }, after: { status: 'approved' } });
    expect((await listAudit(db, { operatorId: 4242, objectId: object.id, limit: 10 })).map((e) => e.action)).toEqual(['merchant.suspend']);
    expect((await listAudit(db, { action: 'merchant.approve', objectId: object.id, limit: 10 })).map((e) => e.action)).toEqual(['merchant.approve']);
    expect(await listAudit(db, { objectId: object.id, beforeId: entries[1].id, limit: 10 })).toEqual([]);
  });

  it('refuses to change or delete an entry, whoever asks', async () => {
    await expect(db.query('UPDATE audit_log SET reason = $1 WHERE object_id = $2', ['rewritten', object.id])).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM audit_log WHERE object_id = $1', [object.id])).rejects.toThrow(/append-only/);
    await expect(db.exec('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect(await listAudit(db, { objectId: object.id, limit: 10 })).toHaveLength(2);
  });

  it('leaves no entry when the action rolls back', async () => {
    const id = `${object.id}-rolled-back`;
    await expect(
      db.transaction(async (tx) => {
        await appendAudit(tx, { now: new Date(), actor: CLI_ACTOR, action: 'merchant.approve', object: { type: 'merchant', id } });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await listAudit(db, { objectId: id, limit: 10 })).toEqual([]);
  });
});
