// The README is a newcomer's front door: what Bhuktani is, two commands, a first payment and where
// each document is. Reference belongs in docs/ and what changed when in CHANGELOG.md, so the page
// stays short enough to read at once.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const README_MOST_LINES = 150;

const readme = (): string => readFileSync(join(ROOT, 'README.md'), 'utf8');
const documents = (): string[] => readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

/**
 * How the README and docs run the CLI: node on the built entry, from the project's root. It starts
 * in about a second from a fresh clone after npm install; `npx bhuktani` installs the project again
 * into npx's cache first (about half a minute, a cache left broken when cut short).
 */
const CLI = 'node bin/bhuktani.js';
/** The first words of the CLI's commands (src/cli/main.ts), and its usage. */
const CLI_WORDS = ['migrate', 'merchant', 'wallet', 'ledger', 'payment', 'payout', 'operator', 'provider', '--help'];

/**
 * Folders of src/ whose references to other documents are cleaned by the engineers restructuring
 * them; empty this list once they are done.
 */
export const REFERENCES_LEFT_IN = ['src/providers', 'src/doors'];

/**
 * A pointer to a document or a tracker a reader of the repository cannot open, also where a line
 * breaks inside it (a comment's `//`, `*`, `--` or `#` between its words).
 */
const POINTER = /contract(?:'s)?(?:\s|\/\/|\*|--|#)+sections?\b|issue(?:\s|\/\/|\*|--|#)+\d+/gi;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return REFERENCES_LEFT_IN.includes(path) ? [] : filesUnder(path);
    return [path];
  });
}

describe('README.md', () => {
  it(`is at most ${README_MOST_LINES} lines`, () => {
    expect(readme().trimEnd().split('\n').length).toBeLessThanOrEqual(README_MOST_LINES);
  });

  it('has no history: no heading of changes, releases or dates (they go to CHANGELOG.md)', () => {
    const headings = readme().split('\n').filter((line) => /^#+ /.test(line));
    expect(headings.filter((heading) => /chang|what'?s new|release|history|unreleased|\d{4}-\d\d-\d\d/i.test(heading))).toEqual([]);
    expect(existsSync(join(ROOT, 'CHANGELOG.md'))).toBe(true);
  });

  it('gives the two commands, the one that runs the tests being what CI runs', () => {
    expect(readme()).toMatch(/^npm install && npm start\b/m);
    expect(readme()).toMatch(/^npm test\b/m);
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('links every document of docs/ and CHANGELOG.md, and every file it links exists', () => {
    const links = [...readme().matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/.test(target));
    expect(links.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
    expect(['CHANGELOG.md', ...documents()].filter((document) => !links.includes(document))).toEqual([]);
  });
});

describe('the CLI as the README and docs run it', () => {
  it(`is run as \`${CLI} …\` in every shell line of the README and docs, never through npx`, () => {
    const command = new RegExp(`(\\S*bhuktani(?:\\.js)?) (?:${CLI_WORDS.join('|')})\\b`);
    const misrun = ['README.md', ...documents()].flatMap((file) => {
      const blocks = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]);
      return blocks.flatMap((block) => block.split('\n')).filter((line) => command.test(line) && !line.startsWith(`${CLI} `)).map((line) => `${file}: ${line}`);
    });
    expect(misrun).toEqual([]);
    expect(['README.md', ...documents()].filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('npx bhuktani '))).toEqual([]);
    expect(readme()).toContain(`\n${CLI} --help\n`);
  });

  it("prints its usage, run as documented from the project's root", async () => {
    const [program, ...args] = CLI.split(' ');
    expect(program).toBe('node');
    const { stdout } = await promisify(execFile)(process.execPath, [...args, '--help'], { cwd: ROOT });
    expect(stdout, 'the built CLI (dist/, npm run build) prints its usage').toMatch(/^usage: bhuktani <command>\n/);
    expect(stdout).toContain('bhuktani merchant create');
  });
});

describe('rules where they are used', () => {
  it('are stated in the project’s own words: src/, docs/ and the README point to no contract section or issue number', () => {
    const pointers = ['README.md', ...filesUnder('docs'), ...filesUnder('src')].flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const lines = text.split('\n');
      return [...text.matchAll(POINTER)].map((m) => {
        const line = text.slice(0, m.index).split('\n').length;
        return `${file}:${line}: ${lines[line - 1].trim()}`;
      });
    });
    expect(pointers).toEqual([]);
  });
});
