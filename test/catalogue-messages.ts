// A payer's catalogue read as a list: every message's path (`checkout.pay`) with what it says, a
// message taking values called with sample ones. For the tests of the catalogues and their glossary.
import { Html } from '../src/http/html.js';

export type Tree = { [key: string]: unknown };

export function messages(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else if (typeof value === 'function') {
      const said = (value as (...args: unknown[]) => string | Html)(3, 7, 1111, 987654, 9800000007);
      found.set(path, said instanceof Html ? said.value : said);
    } else if (value && typeof value === 'object') for (const [inner, text] of messages(value as Tree, path)) found.set(inner, text);
    else found.set(path, `(not a message: ${String(value)})`);
  }
  return found;
}
