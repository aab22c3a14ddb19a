import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hashPassword, usePasswordCost, verifyPassword } from './password.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesOf(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('password hashes', () => {
  it("are scrypt with N 16384, r 8, p 1 at the service's cost, and verify", async () => {
    usePasswordCost('production');
    onTestFinished(() => usePasswordCost('tests'));
    const hash = await hashPassword('a long tea secret');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('a long tea secret', hash)).toBe(true);
    expect(await verifyPassword('a long tea secreT', hash)).toBe(false);
  });

  it('carry their own cost: one made at the tests’ cost still verifies at the service’s, and the other way', async () => {
    usePasswordCost('tests');
    const cheap = await hashPassword('correct horse battery');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    usePasswordCost('production');
    onTestFinished(() => usePasswordCost('tests'));
    expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
    expect(await verifyPassword('correct horse battery!', cheap)).toBe(false);
  });

  it('are made at the test cost by no code of the service: only the test set-up asks for it', () => {
    const callers = sourcesOf(SRC).filter((file) => !file.endsWith('password.ts') && readFileSync(file, 'utf8').includes('usePasswordCost'));
    expect(callers).toEqual([]);
  });
});
