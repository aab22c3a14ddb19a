// Evidence for the notes, gathered in short extra runs after the measured ones: the statements and
// plans PostgreSQL logs for one request (auto_explain and log_statement on a separate instance's
// sessions, so the service's code is observed as it is, whatever its queries), and CPU profiles.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { postgresLogFile } from './postgres.js';
import { startService, type Service } from './service.js';

/** Session settings for an evidence instance (sent as PGOPTIONS by node-postgres). */
export const explainOptions = [
  '-c session_preload_libraries=auto_explain',
  '-c auto_explain.log_min_duration=0',
  '-c auto_explain.log_analyze=on',
  '-c auto_explain.log_buffers=on',
  '-c auto_explain.log_timing=on',
  '-c log_statement=all',
].join(' ');

/**
 * An instance whose PostgreSQL sessions log every statement and its plan, its background jobs
 * quiet, so that what is captured around one request is that request's.
 */
export function startEvidenceService(): Promise<Service> {
  return startService({ PGOPTIONS: explainOptions, WEBHOOK_INTERVAL_MS: '3600000', SWEEP_INTERVAL_SECONDS: '3600' });
}

export interface LogEntry {
  pid: number;
  database: string;
  level: string;
  message: string;
}

const ENTRY = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (?:(\S*)@(\S*) )?([A-Z]+):  (.*)$/;

function parseLog(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of text.split('\n')) {
    const match = ENTRY.exec(line);
    if (match) entries.push({ pid: Number(match[1]), database: match[3] ?? '', level: match[4], message: match[5] });
    else if (entries.length && line.length) entries[entries.length - 1].message += `\n${line}`;
  }
  return entries;
}

/** What the server logged for `database` while `work` ran; undefined when the log cannot be read. */
export async function capturePostgresLog<T>(database: string, work: () => Promise<T>): Promise<{ result: T; entries: LogEntry[] | undefined }> {
  const file = postgresLogFile();
  let start: number | undefined;
  try {
    if (file) start = statSync(file).size;
  } catch {
    start = undefined;
  }
  const result = await work();
  if (!file || start === undefined) return { result, entries: undefined };
  // Let the server flush what it logged for the last statements.
  await new Promise((r) => setTimeout(r, 300));
  try {
    const size = statSync(file).size;
    const buffer = Buffer.alloc(Math.max(0, size - start));
    const fd = openSync(file, 'r');
    readSync(fd, buffer, 0, buffer.length, start);
    closeSync(fd);
    return { result, entries: parseLog(buffer.toString()).filter((e) => e.database === database) };
  } catch {
    return { result, entries: undefined };
  }
}

/** The statements a request sent (log_statement=all), in order, shortened. */
export function statementsOf(entries: LogEntry[]): string[] {
  return entries
    .filter((e) => e.level === 'LOG' && /^(statement|execute [^:]*): /.test(e.message))
    .map((e) => e.message.replace(/^(statement|execute [^:]*): /, '').replace(/\s+/g, ' ').trim());
}

/** auto_explain's plans: the statement text and its EXPLAIN ANALYZE output. */
export function plansOf(entries: LogEntry[]): { durationMs: number; query: string; plan: string }[] {
  const plans: { durationMs: number; query: string; plan: string }[] = [];
  for (const e of entries) {
    const match = /^duration: ([\d.]+) ms {2}plan:\n([\s\S]*)$/.exec(e.message);
    if (!match) continue;
    const body = match[2];
    const queryMatch = /Query Text: ([\s\S]*?)\n(?=\s*\S.*(?:cost=|\(actual))/.exec(body);
    const query = (queryMatch?.[1] ?? '').replace(/\s+/g, ' ').trim();
    const plan = body
      .slice(queryMatch ? queryMatch.index + queryMatch[0].length : 0)
      .split('\n')
      .map((l) => l.replace(/^\t/, ''))
      .join('\n')
      .trimEnd();
    plans.push({ durationMs: Number(match[1]), query, plan });
  }
  return plans;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** A V8 .cpuprofile: its nodes' hit counts and the samples behind them (times in µs). */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * A .cpuprofile, or only its samples from `window.fromEndMs + window.lengthMs` to `window.fromEndMs`
 * before it ended: a profile of the time a load ran, without the process's start-up and stop.
 */
export function readProfile(path: string, window?: { lengthMs: number; fromEndMs: number }): CpuProfile {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  if (!window || !profile.samples || !profile.timeDeltas) return profile;
  const to = profile.endTime - window.fromEndMs * 1000;
  const from = to - window.lengthMs * 1000;
  const hits = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas![i];
    if (at >= from && at <= to) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  return { ...profile, nodes: profile.nodes.map((node) => ({ ...node, hitCount: hits.get(node.id) ?? 0 })) };
}

/** The functions with the most self time in a V8 .cpuprofile, as shares of the busy (non-idle) samples. */
export function profileSummary(profile: CpuProfile, top = 15): { share: number; name: string }[] {
  const byName = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName === '(idle)') continue;
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/').replace(/^node:/, 'node:')}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + hits);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, hits]) => ({ name, share: hits / Math.max(1, total) }));
}

/** Busy self time grouped by where the code lives: the service, its dependencies, Node internals, GC. */
export function profileByArea(profile: CpuProfile): Record<string, number> {
  const areas: Record<string, number> = {};
  let total = 0;
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    if (functionName === '(idle)') continue;
    const hits = node.hitCount ?? 0;
    total += hits;
    let area: string;
    if (functionName === '(garbage collector)') area = 'garbage collector';
    else if (functionName === '(program)') area = 'V8/native (program)';
    else if (url.startsWith('wasm://')) area = 'WebAssembly (PGlite\'s PostgreSQL)';
    else if (url.includes('/node_modules/')) area = `node_modules/${/\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]}`;
    else if (url.includes('/dist/')) area = 'service code (dist/)';
    else if (url.startsWith('node:') || !url) area = 'Node internals';
    else area = 'other';
    areas[area] = (areas[area] ?? 0) + hits;
  }
  for (const key of Object.keys(areas)) areas[key] = areas[key] / Math.max(1, total);
  return Object.fromEntries(Object.entries(areas).sort((a, b) => b[1] - a[1]));
}

/**
 * Inclusive time (self plus callees) of the service's own functions (dist/), as shares of the busy
 * samples: which of its paths cost most, whatever library code they spend it in.
 */
export function profileInclusive(profile: CpuProfile, top = 12): { share: number; name: string }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const busy = profile.nodes.reduce((sum, n) => sum + (n.callFrame.functionName === '(idle)' ? 0 : (n.hitCount ?? 0)), 0);
  const inclusive = new Map<number, number>();
  const total = (node: ProfileNode): number => {
    let hits = node.callFrame.functionName === '(idle)' ? 0 : (node.hitCount ?? 0);
    for (const child of node.children ?? []) hits += total(byId.get(child)!);
    inclusive.set(node.id, hits);
    return hits;
  };
  total(profile.nodes[0]);
  const byName = new Map<string, number>();
  // Depth first, counting a function once per stack (recursion is not counted twice).
  const walk = (node: ProfileNode, onStack: Set<string>) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = url.includes('/dist/') && !url.includes('/node_modules/') ? `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, 'dist/')}:${lineNumber + 1}` : undefined;
    const counted = name !== undefined && !onStack.has(name);
    if (counted) {
      byName.set(name, (byName.get(name) ?? 0) + inclusive.get(node.id)!);
      onStack.add(name);
    }
    for (const child of node.children ?? []) walk(byId.get(child)!, onStack);
    if (counted) onStack.delete(name);
  };
  walk(profile.nodes[0], new Set());
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, hits]) => ({ name, share: hits / Math.max(1, busy) }));
}
