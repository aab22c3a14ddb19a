// Hostile input for the fuzz suites: values of the wrong type, numbers at the edges, text that
// databases and parsers trip on, deep nesting, huge arrays, and raw bodies JSON.stringify cannot make.
import fc from 'fast-check';

/** Runs per property: FUZZ_RUNS (default 500); `npm run test:long` asks for far more. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** FUZZ_SEED replays a failure fast-check reported (with its `path`, FUZZ_PATH). */
export const fuzzOptions = (runs = FUZZ_RUNS) => ({
  numRuns: runs,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH } : {}),
});
/** A generous vitest timeout for a property of `runs` requests each. */
export const fuzzTimeout = (runs = FUZZ_RUNS, perRunMs = 150) => Math.max(5 * 60_000, runs * perRunMs);

export const edgeNumbers = fc.constantFrom(
  0, -0, 1, -1, 9, 10, 11, 0.5, 1.5, 9.99, 10.0000001, -10, -10.5, 1e308, -1e308, 5e-324, 1e21, 1e16,
  Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 63, 2 ** 64, 10_000_000_000, 10_000_000_001,
);

export const numericStrings = fc.constantFrom(
  '1e3', '0x10', '0b11', '0o7', 'NaN', 'Infinity', '-Infinity', '1_000', ' 100 ', '100.0', '100.00', '100.5', '-100', '+100', '0100', '-0',
  '0', '', ' ', '\t', '١٠٠', '１００', '100\u0000', '\u00a0100', '1,000', '10 10', '99999999999999999999999', '1e308', '9007199254740993',
  '10.', '.10', '100\n', '—10', '𝟙𝟘𝟘',
);

export const nastyStrings = fc.constantFrom(
  '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udbff\udfff', '\u202eevil', '🤑💸', 'ﷺ', 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇', '<script>alert(1)</script>',
  "' OR 1=1 --", '"; DROP TABLE payments; --', '%00', '%s%s%n', '../../etc/passwd', '\r\nX-Injected: 1', '\\', '\u2028\u2029', '\ufeff',
  'x'.repeat(255), 'x'.repeat(256), 'é'.repeat(300), 'x'.repeat(5000), 'https://', 'javascript:alert(1)', 'http://[::1', 'https://exa mple.com',
  'https://shop.example.com/\u0000', 'HTTPS://SHOP.EXAMPLE.COM', 'http://localhost', 'null', 'true', '{}', '[]', '__proto__', 'constructor',
);

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: nastyStrings },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: numericStrings },
);

/** Nested arrays or objects, `depth` deep (built without recursion). */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Any value of the wrong type, or of the right type at a bad edge. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeNumbers },
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [''], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 20, max: 400 }), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([d, k]) => nested(d, k)) },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => Array.from({ length: n * 400 }, () => ({ label: 'x', amount: 1 }))) },
);

/** Content types a client might send, right and wrong. */
export const contentTypes = fc.constantFrom(
  'application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=utf-16',
  'application/json; charset=latin1', 'application/json;;', 'application/merge-patch+json', 'application/vnd.api+json', 'text/plain', 'text/json',
  'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/octet-stream', '', '*/*', 'json', undefined,
);

/** Raw JSON-ish text: duplicate keys, comments, trailing commas, literals JSON has not, truncation, deep nesting, a BOM. */
export function rawBodies(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const text = JSON.stringify(valid);
  const inner = text.slice(1, -1);
  return fc.oneof(
    fc.constantFrom(
      `{"amount": 1000, ${inner}, "amount": "x"}`,
      `{${inner}, "amount": -5}`,
      `{${inner}, "amount": 1000, "amount": 1000}`,
      `{${inner}, "merchant_a": 1, "merchant_a": {"b": [1, 2]}}`,
      `{${inner},}`,
      `{${inner}} trailing`,
      `/* hi */ ${text}`,
      `\ufeff${text}`,
      `{${inner}, "amount": NaN}`,
      `{${inner}, "amount": Infinity}`,
      `{${inner}, "amount": 1e999}`,
      `{${inner}, "amount": -0}`,
      `{${inner}, "amount": 0x10}`,
      `{${inner}, "merchant_x": "\\u0000"}`,
      `{${inner}, "merchant_x": "\\ud800"}`,
      `{${inner}, "merchant_\\u0000": 1}`,
      `{${inner}, "purchase_order_id": "\\u0000"}`,
      `{${inner}, "customer_info": {"name": "\\ud83d"}}`,
      `{${inner}, "__proto__": {"amount": 5}}`,
      `{${inner}, "constructor": {"prototype": {"x": 1}}}`,
      `{'amount': 1000}`,
      text.slice(0, text.length / 2),
      '',
      ' ',
      'null',
      '[]',
      '"a string"',
      '1000',
      'true',
      '{"a":',
      '\u0000',
    ),
    fc.integer({ min: 100, max: 200_000 }).map((depth) => `{${inner}, "merchant_deep": ${'['.repeat(depth)}${']'.repeat(depth)}}`),
    fc.integer({ min: 100, max: 100_000 }).map((depth) => `{${inner}, "customer_info": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`),
    fc.integer({ min: 1001, max: 100_000 }).map((n) => `{${inner}, "product_details": [${Array(n).fill('{}').join(',')}]}`),
    fc.integer({ min: 1, max: 50 }).map((n) => `{${inner}, "merchant_big": "${'x'.repeat(n * 1000)}"}`),
  );
}

/** encodeURIComponent for any string: an unpaired surrogate (which no URL can carry) becomes U+FFFD. */
export const uriEncode = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
