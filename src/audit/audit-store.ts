// The SQL of the audit log. Append and read only: there is deliberately no update or delete here,
// and the table's triggers refuse them (migration 011).
import type { Queryable } from '../db/db.js';
import type { Actor, AuditEntry, AuditRecord } from './audit-entry.js';

/** Appends one entry; pass the action's own transaction, so the entry exists exactly when the action committed. */
export async function appendAudit(tx: Queryable, entry: AuditEntry & { now: Date }): Promise<void> {
  await tx.query(
    `INSERT INTO audit_log (occurred_at, actor_kind, actor_id, actor_label, action, object_type, object_id, environment, reason, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      entry.now,
      entry.actor.kind,
      entry.actor.kind === 'operator' ? entry.actor.id : null,
      entry.actor.label,
      entry.action,
      entry.object.type,
      entry.object.id,
      entry.environment ?? null,
      entry.reason ?? null,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}

export interface AuditFilter {
  operatorId?: number;
  action?: string;
  objectType?: string;
  objectId?: string;
  /** Keyset: entries strictly older than this one (newest first). */
  beforeId?: number;
  limit: number;
}

interface AuditRow {
  id: number;
  occurred_at: Date;
  actor_kind: Actor['kind'];
  actor_id: number | null;
  actor_label: string;
  action: string;
  object_type: AuditEntry['object']['type'];
  object_id: string;
  environment: AuditEntry['environment'] | null;
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Newest first, filtered; `beforeId` pages by keyset, so a deep page costs what the first does. */
export async function listAudit(db: Queryable, filter: AuditFilter): Promise<AuditRecord[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.operatorId !== undefined) add((p) => `actor_kind = 'operator' AND actor_id = ${p}`, filter.operatorId);
  if (filter.action) add((p) => `action = ${p}`, filter.action);
  if (filter.objectType) add((p) => `object_type = ${p}`, filter.objectType);
  if (filter.objectId) add((p) => `object_id = ${p}`, filter.objectId);
  if (filter.beforeId !== undefined) add((p) => `id < ${p}`, filter.beforeId);
  params.push(filter.limit);
  const rows = await db.query<AuditRow>(
    `SELECT id, occurred_at, actor_kind, actor_id, actor_label, action, object_type, object_id, environment, reason, before, after
       FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    occurredAt: row.occurred_at,
    actor: row.actor_kind === 'operator' ? { kind: 'operator', id: row.actor_id!, label: row.actor_label } : { kind: 'cli', label: 'cli' },
    action: row.action,
    object: { type: row.object_type, id: row.object_id },
    environment: row.environment ?? undefined,
    reason: row.reason ?? undefined,
    before: row.before ?? undefined,
    after: row.after ?? undefined,
  }));
}
