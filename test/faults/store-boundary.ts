// The fault layer between one Bhuktani instance and the store. Every statement on its own is a
// commit of its own; a transaction commits once, at its end. The step's faults name the nth
// statement (a statement timeout, the instance killed there) or the nth commit (the connection cut
// before or after the commit's answer), as PostgreSQL and a network would: a timeout or a cut inside
// a transaction aborts it and rolls it back; a cut after the commit leaves it committed and the
// caller unaware; a killed instance never hears back again and its open transaction rolls back.
import type { Db, Queryable } from '../../src/db/db.js';
import type { StoreFault } from './schedule.js';

/** What PostgreSQL's client says when the connection drops (src/db/db.ts: isUnavailable). */
const connectionCut = () => Object.assign(new Error('Connection terminated unexpectedly (fault simulator)'), { code: '08006' });
const statementTimeout = () => Object.assign(new Error('canceling statement due to statement timeout (fault simulator)'), { code: '57014' });
const inAbortedTransaction = () => Object.assign(new Error('current transaction is aborted, commands ignored until end of transaction block'), { code: '25P02' });

const never = <T>() => new Promise<T>(() => {});

export class StoreBoundary {
  private planned: { nth: number; kind: StoreFault }[] = [];
  private statements = 0;
  private commits = 0;
  private dead = false;
  private killed!: Promise<never>;
  private kill!: (error: Error) => void;
  /** `injected`: counts the faults that met a call, by kind (the world's, across restarts). */
  constructor(
    private readonly onKill: () => void,
    private readonly injected: Map<StoreFault, number>,
  ) {
    this.killed = new Promise<never>((_, reject) => {
      this.kill = reject;
    });
    this.killed.catch(() => {});
  }

  /** The step's faults at this boundary; the counts start again. */
  plan(faults: { nth: number; kind: StoreFault }[]): void {
    this.planned = faults;
    this.statements = 0;
    this.commits = 0;
  }

  get alive(): boolean {
    return !this.dead;
  }

  private take(kinds: StoreFault[], count: number): StoreFault | undefined {
    const fault = this.planned.find((f) => f.nth === count && kinds.includes(f.kind));
    if (fault) {
      this.planned = this.planned.filter((f) => f !== fault);
      this.injected.set(fault.kind, (this.injected.get(fault.kind) ?? 0) + 1);
    }
    return fault?.kind;
  }

  /** The instance dies: everything in flight or asked later hangs, its transaction rolls back. */
  die(): void {
    if (this.dead) return;
    this.dead = true;
    this.kill(new Error('the instance was killed (fault simulator)'));
    this.onKill();
  }

  /** A statement's own faults: undefined to run it, or what it meets instead. */
  private atStatement(): 'timeout' | 'killed' | undefined {
    const fault = this.take(['statement-timeout', 'kill'], this.statements++);
    if (fault === 'kill') this.die();
    return fault === 'kill' ? 'killed' : fault === 'statement-timeout' ? 'timeout' : undefined;
  }

  wrap(db: Db): Db {
    const autocommit = async <T>(run: () => Promise<T>): Promise<T> => {
      if (this.dead) return never();
      const met = this.atStatement();
      if (met === 'killed') return never();
      if (met === 'timeout') throw statementTimeout();
      const cut = this.take(['cut-before-commit', 'cut-after-commit'], this.commits++);
      if (cut === 'cut-before-commit') throw connectionCut();
      const result = await run();
      if (this.dead) return never();
      if (cut === 'cut-after-commit') throw connectionCut();
      return result;
    };

    return {
      kind: db.kind,
      query: (sql, params) => autocommit(() => db.query(sql, params)),
      exec: (sql) => autocommit(() => db.exec(sql)),
      transaction: async (work) => {
        if (this.dead) return never();
        let cutAfter = false;
        try {
          const result = await db.transaction(async (tx) => {
            let aborted = false;
            const faulty = (run: () => Promise<unknown>) => async () => {
              if (this.dead) return never();
              if (aborted) throw inAbortedTransaction();
              const met = this.atStatement();
              if (met === 'killed') return never();
              if (met === 'timeout') {
                aborted = true;
                throw statementTimeout();
              }
              return run();
            };
            const inside: Queryable = {
              query: <T>(sql: string, params?: unknown[]) => faulty(() => tx.query(sql, params))() as Promise<T[]>,
              exec: (sql: string) => faulty(() => tx.exec(sql))() as Promise<void>,
            };
            // A killed instance's transaction ends (its connection closed): rolled back.
            const done = await Promise.race([work(inside), this.killed]);
            if (aborted) throw inAbortedTransaction();
            const cut = this.take(['cut-before-commit', 'cut-after-commit'], this.commits++);
            if (cut === 'cut-before-commit') throw connectionCut();
            cutAfter = cut === 'cut-after-commit';
            return done;
          });
          if (this.dead) return never();
          if (cutAfter) throw connectionCut();
          return result;
        } catch (error) {
          if (this.dead) return never();
          throw error;
        }
      },
      close: async () => {},
    };
  }
}
