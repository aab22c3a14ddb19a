// The configuration table of docs/configuration.md names every variable the service reads, and
// nothing else: the names come from loadConfig itself (an environment that records what is read), so
// a new variable without a row, or a row whose variable is gone, fails here by name.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const ROOT = join(import.meta.dirname, '..');

/** The names loadConfig reads from `values`; refuses an environment read by enumeration, which it could not see. */
function namesRead(values: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return name in target;
    },
    ownKeys() {
      throw new Error('loadConfig lists the environment: read each variable by name, so that the check of the configuration table sees it');
    },
  });
  loadConfig(recording, false);
  return read;
}

/** Every variable loadConfig reads: with nothing set, and with every optional part switched on (variables read only then). */
function variablesRead(): string[] {
  const everythingOn = {
    DATABASE_URL: 'postgres://bhuktani@127.0.0.1/bhuktani',
    READ_DATABASE_URL: 'postgres://bhuktani@127.0.0.1:5001/bhuktani',
    REDIS_URL: 'redis://127.0.0.1:6379',
    OTP_SENDER: 'sms',
    SMS_GATEWAY_URL: 'https://sms.example.com/send',
    SMTP_URL: 'smtp://mail.example.com',
    MAIL_FROM: 'Bhuktani <no-reply@example.com>',
    METRICS_PORT: '9090',
    METRICS_TOKEN: 'a-token-of-sixteen-characters',
  };
  return [...new Set([...namesRead({}), ...namesRead(everythingOn)])].sort();
}

/** The first column of the table under docs/configuration.md's "## Configuration". */
function variablesDocumented(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const section = doc.split(/^## Configuration$/m)[1]?.split(/^#/m)[0] ?? '';
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]).sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the configuration table of docs/configuration.md', () => {
  it('lists every variable loadConfig reads, and only those', () => {
    const read = variablesRead();
    const documented = variablesDocumented();
    expect(read.length).toBeGreaterThan(30);
    expect({ readButNotDocumented: read.filter((name) => !documented.includes(name)) }).toEqual({ readButNotDocumented: [] });
    expect({ documentedButNotRead: documented.filter((name) => !read.includes(name)) }).toEqual({ documentedButNotRead: [] });
    expect({ documentedTwice: documented.filter((name, i) => documented.indexOf(name) !== i) }).toEqual({ documentedTwice: [] });
  });

  it('is the only place the server reads the environment: no other file of src/ reads process.env', () => {
    const readers = sourceFiles(join(ROOT, 'src'))
      .filter((file) => !file.endsWith(join('src', 'config.ts')))
      .filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => !/^\s*(\/\/|\*)/.test(line) && line.includes('process.env')))
      .map((file) => relative(ROOT, file));
    expect(readers).toEqual([]);
  });

  it('deploy/bhuktani.env.example sets only variables the service reads', () => {
    const example = readFileSync(join(ROOT, 'deploy', 'bhuktani.env.example'), 'utf8');
    const set = [...example.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const read = variablesRead();
    expect(set.length).toBeGreaterThan(10);
    expect({ setButNotRead: set.filter((name) => !read.includes(name)) }).toEqual({ setButNotRead: [] });
  });
});
