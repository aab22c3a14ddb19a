// The README is a newcomer's front door: what Bhuktani is, two commands, a first payment and where
// each document is. Reference belongs in docs/ and what changed when in CHANGELOG.md, so the page
// stays short enough to read at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const README_MOST_LINES = 150;

const readme = (): string => readFileSync(join(ROOT, 'README.md'), 'utf8');

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
    const documents = ['CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    expect(documents.filter((document) => !links.includes(document))).toEqual([]);
  });
});
