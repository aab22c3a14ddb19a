// Writes the rooms' rules (rules.ts) into docs/layout.md, between its rules markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesAsMarkdown } from './rules.js';

const path = join(import.meta.dirname, '..', '..', 'docs', 'layout.md');
const layout = readFileSync(path, 'utf8');
const block = /<!-- rules -->\n(?:[\s\S]*?\n)?<!-- \/rules -->/;
if (!block.test(layout)) throw new Error('docs/layout.md has no <!-- rules --> … <!-- /rules --> block');
writeFileSync(path, layout.replace(block, `<!-- rules -->\n${rulesAsMarkdown()}\n<!-- /rules -->`));
