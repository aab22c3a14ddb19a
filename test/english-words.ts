// What of a page a person reads, and the English words left in it: for the test that renders every
// payer page in Nepali. Read: the text between tags, a page's title, and the attributes people meet
// (a box's placeholder, a name for assistive technology, a picture's text, what a script shows).
// Not read: scripts, styles, code (commands, ids), hidden fields, and what is marked as English on
// purpose (`lang="en"`: the switch's `English`, TEST MODE).

import { providerLabel, providerNames } from '../src/providers/registry.js';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Said the same in every language: the brand, the names payers know (every provider's), examples of what they type. */
const EVERYWHERE = ['Bhuktani', ...providerNames.flatMap((name) => providerLabel(name).split(' ')), 'MPIN', 'OTP', 'QR', 'pidx', '98XXXXXXXX', 'name@example.com'];

export function readableText(body: string): string {
  const stripped = body
    .replace(/<(script|style|code)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<input\b[^>]*type="hidden"[^>]*>/gi, ' ')
    .replace(/<(\w+)\b[^>]*\slang="en"[^>]*>[^<]*<\/\1>/gi, ' ');
  const attributes = [...stripped.matchAll(/\s(?:placeholder|aria-label|title|alt|data-expired|data-processing)="([^"]*)"/g)].map((m) => m[1]);
  return [stripped.replace(/<[^>]+>/g, ' '), ...attributes].join(' ').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);
}

/** Words of Latin letters left once `data` (the merchant's own: names, ids, what the payer typed) is taken out. */
export function englishWords(body: string, data: string[] = []): string[] {
  let text = readableText(body);
  for (const known of [...data, ...EVERYWHERE].filter(Boolean).sort((a, b) => b.length - a.length)) text = text.split(known).join(' ');
  return [...new Set(text.match(/[A-Za-z]{2,}/g) ?? [])];
}
