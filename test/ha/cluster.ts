// The production topology of deploy/ built on this machine for the HA suite: one etcd, three
// PostgreSQL 15 nodes under Patroni (synchronous mode, pg_rewind, the timings of
// deploy/patroni-node1.yml), HAProxy with a primary and a replica port checked on Patroni's REST API
// (as deploy/haproxy.cfg), and Bhuktani instances as `node dist/bundle/server.js`. Everything runs as plain
// processes of this test (Patroni and PostgreSQL as the postgres user), on ports of its own, in a
// temporary directory removed at the end; `stop()` ends every process it started, also on failure.
// Test-only simplifications: loopback `trust` authentication instead of passwords, no watchdog.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
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
];

/** Installs Patroni, etcd and HAProxy from Debian's packages when missing (the suite runs as root). */
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
  }

  private patroniConfig(node: Node) {
    return {
      scope: `bhuktani-ha-${process.pid}`,
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
        parameters: { unix_socket_directories: this.dir, shared_buffers: '64MB' },
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
