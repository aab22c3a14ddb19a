// Fuzzing the operator console's forms: hostile field values, repeated keys, garbage CSRF tokens
// and odd ids, posted by a signed-in admin (with its session's token, so the handlers themselves
// are reached) and by a signed-out browser. The console never answers 5xx, always answers a page,
// never echoes markup unescaped, never signs anyone in without the right code, and never leaves
// an operator with a role outside admin, support and finance. Size: FUZZ_RUNS (default 1000) / 4.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { newOperator, operatorBrowser } from '../console-client.js';
import { startTestApp } from '../test-app.js';
import { FUZZ_RUNS, fuzzOptions, fuzzTimeout, hostileString, uriEncode } from './hostile.js';

const RUNS = Math.max(25, Math.floor(FUZZ_RUNS / 4));
const t = await startTestApp();
afterAll(() => t.close());
const admin = await newOperator(t.ctx, 'admin');
const victim = await newOperator(t.ctx, 'support');
const browser = operatorBrowser(t.app, t.ctx);
expect((await browser.signIn(admin)).status).toBe(303);
await browser.get('/console');
const csrf = browser.csrf;
const cookie = () => [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

const FORMS: { url: (id: string) => string; fields: string[] }[] = [
  { url: () => '/console/login', fields: ['email', 'password', 'next'] },
  { url: () => '/console/login/code', fields: ['code', 'next'] },
  { url: () => '/console/enrol', fields: ['code'] },
  { url: (id) => `/console/invitation/${id}`, fields: ['password', 'password_again'] },
  { url: () => '/console/operators/invite', fields: ['email', 'role'] },
  { url: (id) => `/console/operators/${id}/role`, fields: ['role'] },
  { url: (id) => `/console/operators/invitations/${id}/revoke`, fields: [] },
  { url: () => '/console/account/password', fields: ['current_password', 'new_password'] },
  { url: () => '/console/account/recovery-codes', fields: ['current_password'] },
];

const ids = fc.oneof(
  fc.constant(String(victim.id)),
  fc.constantFrom('0', '-1', '1e3', '99999999999999999999', 'abc', '%00', '..'),
  hostileString.map(uriEncode),
);

function expectPage(response: { statusCode: number; headers: Record<string, unknown>; body: string }, shown: string) {
  expect(response.statusCode, shown).toBeLessThan(500);
  if (response.statusCode !== 303) expect(String(response.headers['content-type']), shown).toMatch(/^text\/html/);
  expect(response.body, shown).not.toContain('<script>alert(1)</script>');
}

describe('console forms under fuzzing', () => {
  it(
    'answer every hostile post with a page, below 500, escaped, signed in or not',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...FORMS),
          ids,
          fc.dictionary(fc.constantFrom('email', 'password', 'password_again', 'code', 'role', 'next', 'current_password', 'new_password', 'reason'), fc.oneof(hostileString, fc.array(hostileString, { maxLength: 3 })), { maxKeys: 5 }),
          fc.constantFrom('admin', 'admin', 'garbage token', 'none', 'signed out'),
          async (form, id, values, who) => {
            const params = new URLSearchParams();
            for (const [name, value] of Object.entries(values)) for (const one of [value].flat()) params.append(name, one.replace(/[\ud800-\udfff]/g, '\ufffd'));
            if (who === 'admin') params.set('csrf_token', csrf);
            if (who === 'garbage token') params.set('csrf_token', 'x.y');
            const url = form.url(id);
            const response = await t.app.inject({
              method: 'POST',
              url,
              headers: { 'content-type': 'application/x-www-form-urlencoded', ...(who === 'signed out' ? {} : { cookie: cookie() }) },
              payload: params.toString(),
              // Its own address: its wrong links and passwords lock only it (test files share PostgreSQL's store).
              remoteAddress: '192.0.2.33',
            });
            expectPage(response, `${who} POST ${url} ${params.toString().slice(0, 200)} → ${response.statusCode} ${response.body.slice(0, 200)}`);
            if (url.includes('/login') || url.includes('/enrol') || url.includes('/invitation/')) {
              const signedIn = response.headers['set-cookie'];
              // Only a right password starts a (half-way) session; no hostile value is one.
              expect(String(signedIn ?? ''), url).not.toMatch(/bhuktani_console=[\w-]{43}/);
            }
          },
        ),
        fuzzOptions(RUNS),
      );
      const roles = await t.db.query<{ role: string }>('SELECT DISTINCT role FROM operators');
      for (const { role } of roles) expect(['admin', 'support', 'finance']).toContain(role);
      expect((await browser.get('/console')).status).toBe(200);
    },
    fuzzTimeout(RUNS, 300),
  );

  it(
    'answers hostile audit-log filters and paging with a page',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom('operator', 'action', 'object_type', 'object_id', 'before'), hostileString, { maxKeys: 5 }), async (query) => {
          const search = Object.entries(query)
            .map(([k, v]) => `${k}=${uriEncode(v)}`)
            .join('&');
          const response = await t.app.inject({ method: 'GET', url: `/console/audit?${search}`, headers: { cookie: cookie() } });
          expect(response.statusCode, search).toBe(200);
          expectPage(response, search);
        }),
        fuzzOptions(RUNS),
      );
    },
    fuzzTimeout(RUNS, 300),
  );
});
