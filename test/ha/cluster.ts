// The production topology of deploy/ built on this machine for the HA suite: one etcd, three
// PostgreSQL 15 nodes under Patroni (synchronous mode, pg_rewind, the timings of
// deploy/patroni-node1.yml), WAL archived by pgBackRest into a repository of the test's own (as
// deploy/pgbackrest.conf), HAProxy with a primary and a replica port checked on Patroni's REST API
// (as deploy/haproxy.cfg), and Bhuktani instances as `node dist/bundle/server.js`. Everything runs as plain
// processes of this test (Patroni and PostgreSQL as the postgres user), on ports of its own, in a
// temporary directory removed at the end; `stop()` ends every process it started, also on failure.
// Test-only simplifications: loopback `trust` authentication instead of passwords, no watchdog.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, postgresProcesses } from '../processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PACKAGES: [binary: string, pkg: string][] = [
  ['/usr/bin/patroni', 'patroni'],
  ['/usr/bin/etcd', 'etcd-server'],
  ['/usr/sbin/haproxy', 'haproxy'],
  ['/usr/bin/pgbackrest', 'pgbackrest'],
  // deploy/'s backup timers are checked with systemd's own tools (backup-units.test.ts).
  ['/usr/bin/systemd-analyze', 'systemd'],
];
/** The pgBackRest stanza, as deploy/pgbackrest.conf. */
export const STANZA = 'bhuktani';

/** Installs Patroni, etcd, HAProxy and pgBackRest from Debian's packages when missing (the suite runs as root). */
export function installPackages(): void {
  const missing = PACKAGES.filter(([binary]) => !existsSync(binary)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  // Debian starts the packages' own services on install where it can: this suite runs its own.
  for (const service of ['etcd', 'haproxy', 'patroni']) {
    try {
      execFileSync('service', [service, 'stop'], { stdio: 'ignore' });
    } catch {
      // not running, or no init system
    }
  }
}

export function canBuildCluster(): boolean {
  return process.getuid?.() === 0 && existsSync(join(PG_BIN, 'initdb'));
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string;
  exited: Promise<void>;
  alive: boolean;
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'))!;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface Member {
  name: string;
  role: string;
  state: string;
  lag?: number | string;
}

export interface Node {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
}

export class Cluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'bhuktani-ha-'));
  readonly nodes: Node[] = [];
  private readonly procs: Proc[] = [];
  private readonly patronis = new Map<string, Proc>();
  readonly scope = `bhuktani-ha-${process.pid}`;
  etcdPort = 0;
  primaryPort = 0;
  replicaPort = 0;

  /** postgres://… through HAProxy to the primary / to the replicas, database `bhuktani`. */
  get url() {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/bhuktani`;
  }
  get readUrl() {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/bhuktani`;
  }

  private spawn(name: string, command: string, args: string[], options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Proc {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc: Proc = { name, child, output: '', alive: true, exited: undefined as unknown as Promise<void> };
    const keep = (chunk: Buffer) => {
      proc.output = (proc.output + chunk.toString()).slice(-200_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    proc.exited = new Promise((resolve) =>
      child.on('exit', () => {
        proc.alive = false;
        resolve();
      }),
    );
    this.procs.push(proc);
    return proc;
  }

  async start(): Promise<void> {
    const pg = postgresUser();
    chownSync(this.dir, pg.uid, pg.gid);
    this.etcdPort = await freePort();
    const peerPort = await freePort();
    mkdirSync(join(this.dir, 'etcd'));
    this.spawn('etcd', '/usr/bin/etcd', [
      '--name', 'ha', '--data-dir', join(this.dir, 'etcd'),
      '--listen-client-urls', `http://127.0.0.1:${this.etcdPort}`, '--advertise-client-urls', `http://127.0.0.1:${this.etcdPort}`,
      '--listen-peer-urls', `http://127.0.0.1:${peerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`,
      '--initial-cluster', `ha=http://127.0.0.1:${peerPort}`, '--initial-cluster-token', `bhuktani-ha-${process.pid}`,
    ]);
    await waitFor('etcd', async () => ((await fetch(`http://127.0.0.1:${this.etcdPort}/health`)).ok ? true : undefined), 30_000);

    for (const n of [1, 2, 3]) {
      this.nodes.push({ name: `node${n}`, pgPort: await freePort(), restPort: await freePort(), dataDir: join(this.dir, `node${n}`) });
    }
    for (const sub of ['pgbackrest', 'pgbackrest/repo', 'pgbackrest/log', 'pgbackrest/lock']) {
      mkdirSync(join(this.dir, sub));
      chownSync(join(this.dir, sub), pg.uid, pg.gid);
    }
    writeFileSync(this.pgbackrestConf, this.pgbackrestConfig());
    for (const node of this.nodes) {
      writeFileSync(join(this.dir, `${node.name}.yml`), JSON.stringify(this.patroniConfig(node), null, 2));
      chownSync(join(this.dir, `${node.name}.yml`), pg.uid, pg.gid);
    }
    // The first bootstraps the cluster; the others clone it once it is up.
    this.startPatroni(this.nodes[0]);
    await waitFor('the first primary', async () => ((await this.members()).some((m) => m.role === 'leader' && m.state === 'running') ? true : undefined), 120_000, 500);
    this.startPatroni(this.nodes[1]);
    this.startPatroni(this.nodes[2]);
    await this.waitHealthy(180_000);

    this.primaryPort = await freePort();
    this.replicaPort = await freePort();
    writeFileSync(join(this.dir, 'haproxy.cfg'), this.haproxyConfig());
    this.spawn('haproxy', '/usr/sbin/haproxy', ['-db', '-f', join(this.dir, 'haproxy.cfg')]);
    await waitFor('HAProxy to the primary', async () => ((await this.psql(this.primaryPort, 'SELECT pg_is_in_recovery()', 'postgres')) === 'f' ? true : undefined), 30_000);
    // Writes are taken once Patroni has chosen the synchronous standby: until then, retried.
    await waitFor('CREATE DATABASE on the primary', async () => {
      await this.psql(this.primaryPort, 'CREATE DATABASE bhuktani', 'postgres');
      return true;
    }, 60_000, 1000);
    // The repository learns the cluster; until then archive_command fails and PostgreSQL keeps the WAL.
    // `check` switches to a new segment, which wakes the archiver, and waits until it is archived.
    this.pgbackrest(['stanza-create']);
    this.pgbackrest(['check']);
  }

  /** As deploy/pgbackrest.conf, with the repository, log and lock in the test's directory. */
  get pgbackrestConf() {
    return join(this.dir, 'pgbackrest', 'pgbackrest.conf');
  }

  private pgbackrestConfig(): string {
    const nodes = this.nodes.map((node, i) => `pg${i + 1}-path=${node.dataDir}\npg${i + 1}-port=${node.pgPort}\npg${i + 1}-socket-path=${this.dir}`).join('\n');
    return `[global]
repo1-path=${join(this.dir, 'pgbackrest', 'repo')}
repo1-retention-full=2
repo1-retention-diff=7
start-fast=y
compress-type=zst
process-max=2
archive-push-queue-max=1GiB
log-path=${join(this.dir, 'pgbackrest', 'log')}
lock-path=${join(this.dir, 'pgbackrest', 'lock')}
log-level-console=warn
log-level-file=info

[${STANZA}]
${nodes}
`;
  }

  /** `pgbackrest --stanza=bhuktani ARGS` as the postgres user: its standard output, and its warnings; throws with its message when it fails. */
  pgbackrest(args: string[], timeoutMs = 300_000): { stdout: string; stderr: string } {
    return this.asPostgres('/usr/bin/pgbackrest', [`--config=${this.pgbackrestConf}`, `--stanza=${STANZA}`, ...args], timeoutMs);
  }

  private asPostgres(command: string, args: string[], timeoutMs: number, input?: string): { stdout: string; stderr: string } {
    const pg = postgresUser();
    const run = spawnSync(command, args, {
      uid: pg.uid,
      gid: pg.gid,
      cwd: this.dir,
      env: { PATH: process.env.PATH, HOME: this.dir, LANG: 'C.UTF-8' },
      encoding: 'utf8',
      timeout: timeoutMs,
      input,
    });
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${run.status ?? run.signal}:\n${run.stdout ?? ''}${run.stderr ?? ''}`);
    return { stdout: run.stdout, stderr: run.stderr };
  }

  private patroniConfig(node: Node) {
    return {
      scope: this.scope,
      namespace: '/service/',
      name: node.name,
      restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
      etcd3: { hosts: `127.0.0.1:${this.etcdPort}` },
      bootstrap: {
        // As deploy/patroni-node1.yml.
        dcs: {
          ttl: 10,
          loop_wait: 2,
          retry_timeout: 4,
          primary_start_timeout: 0,
          maximum_lag_on_failover: 1048576,
          synchronous_mode: true,
          synchronous_mode_strict: true,
          synchronous_node_count: 1,
          failsafe_mode: true,
          postgresql: {
            use_pg_rewind: true,
            use_slots: true,
            parameters: {
              max_connections: 200,
              wal_level: 'replica',
              hot_standby: 'on',
              wal_log_hints: 'on',
              max_wal_senders: 10,
              max_replication_slots: 10,
              wal_keep_size: '256MB',
              hot_standby_feedback: 'on',
              synchronous_commit: 'on',
              archive_mode: 'on',
              archive_timeout: 60,
            },
          },
        },
        initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
      },
      postgresql: {
        listen: `127.0.0.1:${node.pgPort}`,
        connect_address: `127.0.0.1:${node.pgPort}`,
        data_dir: node.dataDir,
        bin_dir: PG_BIN,
        pgpass: join(this.dir, `${node.name}.pgpass`),
        authentication: { superuser: { username: 'postgres' }, replication: { username: 'postgres' }, rewind: { username: 'postgres' } },
        pg_hba: ['local all all trust', 'host replication all 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 trust'],
        parameters: {
          unix_socket_directories: this.dir,
          shared_buffers: '64MB',
          // As deploy/patroni-node1.yml: the node's own data directory, so a %p relative to it is found.
          archive_command: `pgbackrest --config=${this.pgbackrestConf} --stanza=${STANZA} --pg1-path=${node.dataDir} archive-push %p`,
        },
        recovery_conf: {
          restore_command: `pgbackrest --config=${this.pgbackrestConf} --stanza=${STANZA} --pg1-path=${node.dataDir} archive-get %f "%p"`,
        },
      },
      tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
    };
  }

  private haproxyConfig(): string {
    const servers = this.nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.restPort}`).join('\n');
    // As deploy/haproxy.cfg's PostgreSQL listeners.
    return `global
    maxconn 1024
defaults
    retries 2
    timeout connect 3s
    timeout check 2s
    timeout client 30m
    timeout server 30m
listen postgres_primary
    mode tcp
    bind 127.0.0.1:${this.primaryPort}
    option httpchk
    http-check send meth GET uri /primary
    http-check expect status 200
    default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
${servers}
listen postgres_replicas
    mode tcp
    bind 127.0.0.1:${this.replicaPort}
    balance leastconn
    option httpchk
    http-check send meth GET uri /replica?lag=16MB
    http-check expect status 200
    default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
${servers}
`;
  }

  startPatroni(node: Node): void {
    const pg = postgresUser();
    const proc = this.spawn(`patroni ${node.name}`, '/usr/bin/patroni', [join(this.dir, `${node.name}.yml`)], {
      uid: pg.uid,
      gid: pg.gid,
      cwd: this.dir,
      env: { PATH: process.env.PATH, HOME: this.dir, LANG: 'C.UTF-8' },
    });
    this.patronis.set(node.name, proc);
  }

  /** The cluster as Patroni reports it (GET /cluster on any node that answers). */
  async members(): Promise<Member[]> {
    for (const node of this.nodes) {
      try {
        const answer = await fetch(`http://127.0.0.1:${node.restPort}/cluster`, { signal: AbortSignal.timeout(2000) });
        if (answer.ok) return ((await answer.json()) as { members: Member[] }).members;
      } catch {
        // that node's Patroni is down: ask the next
      }
    }
    return [];
  }

  /** A leader, and two replicas streaming from it, one of them its synchronous standby. */
  async waitHealthy(timeoutMs: number): Promise<Member[]> {
    return waitFor(
      'a leader and two streaming replicas',
      async () => {
        const members = await this.members();
        const leader = members.filter((m) => m.role === 'leader' && m.state === 'running');
        const replicas = members.filter((m) => m.role !== 'leader' && ['streaming', 'running'].includes(m.state));
        const synchronous = members.some((m) => m.role === 'sync_standby');
        return leader.length === 1 && replicas.length === 2 && synchronous ? members : undefined;
      },
      timeoutMs,
      1000,
    );
  }

  async primary(): Promise<Node> {
    const leader = (await this.members()).find((m) => m.role === 'leader');
    if (!leader) throw new Error('no leader');
    return this.nodes.find((n) => n.name === leader.name)!;
  }

  /** SIGKILL of the node's postmaster and every backend of it: PostgreSQL crashes, Patroni lives. */
  killPostgres(node: Node): void {
    for (const pid of postgresProcesses(node.dataDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** SIGKILL of the node's Patroni and its PostgreSQL: the machine lost. Restarted with `startPatroni`. */
  async killPatroni(node: Node): Promise<void> {
    const proc = this.patronis.get(node.name)!;
    this.killPostgres(node);
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  /** SIGTERM to the node's Patroni: it stops its PostgreSQL (a fast shutdown) and leaves the cluster. */
  async stopPatroni(node: Node): Promise<void> {
    const proc = this.patronis.get(node.name);
    if (!proc?.alive) return;
    proc.child.kill('SIGTERM');
    await proc.exited;
  }

  /**
   * The whole cluster back to `target` (a timestamp), as docs/deploy.md's "Backups and recovery": every
   * Patroni stopped (the replicas first, so none is promoted), the cluster removed from etcd (its
   * history would keep the restored node from leading), the leader's data directory restored by
   * pgBackRest and recovered by PostgreSQL alone up to `target`, then promoted onto a new timeline;
   * Patroni started on it leads a new cluster, and the other nodes, emptied, are cloned from it.
   */
  async restoreToTime(target: string): Promise<{ leader: Node; phasesMs: Record<string, number> }> {
    const phasesMs: Record<string, number> = {};
    let since = Date.now();
    const phase = (name: string) => {
      phasesMs[name] = Date.now() - since;
      since = Date.now();
    };
    const leader = await this.primary();
    for (const node of this.nodes.filter((n) => n !== leader)) await this.stopPatroni(node);
    await this.stopPatroni(leader);
    phase('stop');
    this.asPostgres('/usr/bin/patronictl', ['-c', join(this.dir, `${leader.name}.yml`), 'remove', this.scope], 60_000, `${this.scope}\nYes I am aware\n${leader.name}\n`);
    this.pgbackrest([`--pg1-path=${leader.dataDir}`, '--delta', '--type=time', `--target=${target}`, '--target-action=promote', 'restore'], 600_000);
    phase('restore');

    // Patroni would rewrite the recovery settings pgBackRest wrote: PostgreSQL recovers on its own.
    const recovery = await this.recover(leader.name, leader.dataDir, leader.pgPort);
    if (!recovery.alive) throw new Error(`PostgreSQL's recovery stopped:\n${recovery.output}`);
    recovery.child.kill('SIGINT');
    await recovery.exited;
    phase('recover');

    this.startPatroni(leader);
    await waitFor(`${leader.name} leading the restored cluster`, async () => ((await this.members()).some((m) => m.name === leader.name && m.role === 'leader' && m.state === 'running') ? true : undefined), 120_000, 500);
    phase('leader');
    for (const node of this.nodes.filter((n) => n !== leader)) {
      rmSync(node.dataDir, { recursive: true, force: true });
      this.startPatroni(node);
    }
    await this.waitHealthy(300_000);
    phase('replicas');
    return { leader, phasesMs };
  }

  /**
   * A copy of the database as it was at `target`, beside the running cluster (docs/deploy.md's way to
   * copy back what a mistake destroyed): restored by pgBackRest into a directory of its own, recovered
   * and promoted on a port of its own, never archiving into the cluster's repository. `refused` is
   * PostgreSQL's last words when it would not recover to `target`.
   */
  async restoreBeside(target: string): Promise<{ port: number; warnings: string; refused?: string; stop(): Promise<void> }> {
    const pg = postgresUser();
    const dataDir = join(this.dir, `beside-${Date.now()}`);
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, pg.uid, pg.gid);
    let stderr: string;
    try {
      ({ stderr } = this.pgbackrest([`--pg1-path=${dataDir}`, '--type=time', `--target=${target}`, '--target-action=promote', '--archive-mode=off', 'restore'], 600_000));
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
    const port = await freePort();
    const recovery = await this.recover('beside', dataDir, port, ['-c', `hba_file=${join(dataDir, 'pg_hba.conf')}`, '-c', `ident_file=${join(dataDir, 'pg_ident.conf')}`]);
    const stop = async () => {
      recovery.child.kill('SIGINT');
      await recovery.exited;
      rmSync(dataDir, { recursive: true, force: true });
    };
    if (recovery.alive) return { port, warnings: stderr, stop };
    // Its log, without the refusals of the connections that asked whether it was up.
    const refused = recovery.output.split('\n').filter((line) => /FATAL|LOG: +starting point-in-time/.test(line) && !/the database system is/.test(line)).join('\n');
    return { port, warnings: stderr, refused: refused || recovery.output.slice(-2000), stop };
  }

  /**
   * PostgreSQL on a restored data directory, recovering up to pgBackRest's target. Without hot standby
   * it takes connections only once promoted; with no synchronous standby to wait for. Resolves with
   * the process once it is promoted, or once it has exited (refused).
   */
  private async recover(name: string, dataDir: string, port: number, extra: string[] = []): Promise<Proc> {
    const pg = postgresUser();
    const proc = this.spawn(`postgres ${name} (recovery)`, join(PG_BIN, 'postgres'), [
      '-D', dataDir, '-c', `port=${port}`, '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${this.dir}`,
      '-c', 'hot_standby=off', '-c', 'synchronous_standby_names=', ...extra,
    ], { uid: pg.uid, gid: pg.gid, cwd: this.dir, env: { PATH: process.env.PATH, HOME: this.dir, LANG: 'C.UTF-8' } });
    await waitFor(`${name} recovered and promoted`, async () => {
      if (!proc.alive) return true;
      return (await this.psql(port, 'SELECT pg_is_in_recovery()', 'postgres')) === 'f' ? true : undefined;
    }, 300_000, 500);
    return proc;
  }

  async psql(port: number, sql: string, database = 'bhuktani'): Promise<string> {
    return execFileSync(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-Atc', sql], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  }

  /** Starts `node dist/bundle/server.js` on the cluster; resolves once it is ready. */
  async startBhuktani(env: Record<string, string> = {}): Promise<{ base: string; output(): string }> {
    const port = await freePort();
    const base: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DATABASE_URL', 'READ_DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS']) delete base[name];
    const proc = this.spawn(`bhuktani :${port}`, process.execPath, ['dist/bundle/server.js'], {
      cwd: ROOT,
      env: { ...base, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_URL: this.url, READ_DATABASE_URL: this.readUrl, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', PAYMENT_TTL_SECONDS: '600', RATE_LIMIT_TEST: '100000', RATE_LIMIT_LIVE: '100000', PAYER_ATTEMPTS_PER_MINUTE: '100000', ...env },
    });
    await waitFor(`Bhuktani on ${port}`, async () => {
      if (!proc.alive) throw new Error(`Bhuktani exited: ${proc.output}`);
      return (await fetch(`http://127.0.0.1:${port}/health`)).ok ? true : undefined;
    }, 60_000);
    return { base: `http://127.0.0.1:${port}`, output: () => proc.output };
  }

  /** What each process wrote last, for a failure's message. */
  outputs(): string {
    return this.procs.map((p) => `--- ${p.name}${p.alive ? '' : ' (exited)'}\n${p.output.slice(-3000)}`).join('\n');
  }

  /** Ends every process started here (Bhuktani, HAProxy, Patroni and its PostgreSQL, etcd) and removes the data. */
  async stop(): Promise<void> {
    // Bhuktani and HAProxy first, then the nodes, etcd last (Patroni needs it to stop cleanly).
    const order = (p: Proc) => (p.name.startsWith('bhuktani') || p.name === 'haproxy' ? 0 : p.name.startsWith('patroni') ? 1 : 2);
    for (const rank of [0, 1, 2]) {
      const group = this.procs.filter((p) => p.alive && order(p) === rank);
      for (const p of group) p.child.kill('SIGTERM');
      await Promise.race([Promise.all(group.map((p) => p.exited)), sleep(20_000)]);
      for (const p of group.filter((p) => p.alive)) p.child.kill('SIGKILL');
      await Promise.all(group.map((p) => p.exited));
    }
    // A PostgreSQL whose Patroni was killed outlives it: end it by its data directory.
    for (const node of this.nodes) {
      if (existsSync(join(node.dataDir, 'postmaster.pid'))) {
        try {
          this.killPostgres(node);
        } catch {
          // not running
        }
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
