// One person, several businesses: an accountant invited by three merchants accepts each
// invitation (a new password once, then their own account), logs in once, switches between the three
// with the switcher, and sees only the business they look at, with their role there. Removed from
// one, they keep the others; a team's two-factor rule holds for them on that team only. Through the
// dashboard's forms, with a real SMTP server in the test process receiving the e-mails.
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { enrolTotp, merchantBrowser, type MerchantBrowser, pageText, paidPayment } from '../../test/dashboard-client.js';
import { type MailInbox, withMailInbox } from '../../test/mail-inbox.js';
import { merchantOwnedBy } from '../../test/team-client.js';
import { totpCode } from '../people/totp.js';
import type { TestApp } from '../../test/test-app.js';

let t: TestApp;
let inbox: MailInbox;
withMailInbox((opened) => ({ t, inbox } = opened));

let counter = 0;
const newEmail = (what: string) => `${what}-${process.pid}-${Date.now()}-${++counter}@example.com`;

/** A signed-up merchant with one paid test payment of its own. */
async function business() {
  const browser = merchantBrowser(t.app);
  const { fields, keys } = await browser.signUp();
  const paid = await paidPayment(t.app, keys.test);
  return { browser, fields, keys, paid, merchantId: await merchantOwnedBy(t.db, fields.email) };
}
type Business = Awaited<ReturnType<typeof business>>;

async function invite(owner: Business, email: string, role: string): Promise<string> {
  const before = inbox.to(email).length;
  await owner.browser.get('/dashboard/team');
  expect((await owner.browser.post('/dashboard/team/invite', { email, role })).location).toBe('/dashboard/team?done=invited');
  await expect.poll(() => inbox.to(email).length).toBeGreaterThan(before);
  const mail = inbox.to(email).at(-1)!;
  return /http:\/\/bhuktani\.test(\/dashboard\/invitation\/[\w-]{43})/.exec(mail.text)![1];
}

/** The businesses the switcher offers: value (the merchant's idx), its words, and the one selected. */
function switcher(body: string) {
  const form = /<form method="post" action="\/dashboard\/switch-business"[\s\S]*?<\/form>/.exec(body)?.[0];
  if (!form) return undefined;
  return [...form.matchAll(/<option value="([^"]+)"( selected)?>([^<]+)<\/option>/g)].map((m) => ({ idx: m[1], text: m[3], selected: m[2] !== undefined }));
}

const switchTo = (browser: MerchantBrowser, idx: string) => browser.post('/dashboard/switch-business', { business: idx });

describe('one person in several businesses', () => {
  const password = 'accountant password';
  let shops: Business[];
  let email: string;
  /** The accountant's authenticator app, once they set it up. */
  let secret: string;

  beforeAll(async () => {
    shops = [await business(), await business(), await business()];
    email = newEmail('accountant');
  });

  it('an accountant invited by three merchants accepts all three, logs in once, switches, and sees each business with their role there', async () => {
    const [a, b, c] = shops;
    const links = [await invite(a, email, 'finance'), await invite(b, email, 'viewer'), await invite(c, email, 'admin')];
    // The first e-mail asks for a password; the later ones say to join with the account (it exists by then only for C's).
    expect(inbox.to(email)[0].text).toContain('choose your password');

    // A: a new account, with a password chosen on the page.
    const accountant = merchantBrowser(t.app);
    await accountant.get(links[0]);
    expect((await accountant.post(links[0], { password, password_again: password })).location).toBe('/dashboard');
    // B: logged in as that account already, the page asks only to press Join.
    const bPage = await accountant.get(links[1]);
    expect(bPage.body).not.toContain('name="password"');
    expect(pageText(bPage.body)).toContain(`Join ${b.fields.name}`);
    t.clock.advance(1);
    expect((await accountant.post(links[1])).location).toBe('/dashboard');
    expect(pageText((await accountant.get('/dashboard')).body)).toContain(b.fields.name);
    // C: in another browser, with the account's password.
    const elsewhere = merchantBrowser(t.app);
    const cPage = await elsewhere.get(links[2]);
    expect(pageText(cPage.body)).toContain('You have a Bhuktani account with this address');
    t.clock.advance(1);
    expect((await elsewhere.post(links[2], { password })).location).toBe('/dashboard');
    await expect.poll(() => inbox.to(c.fields.email).some((m) => m.subject.startsWith('A new user joined your team'))).toBe(true);

    // One log-in: it lands on the business chosen last (C), and the switcher lists all three with the role in each.
    const person = merchantBrowser(t.app);
    expect((await person.logIn(email, password)).location).toBe('/dashboard');
    const home = await person.get('/dashboard');
    const offered = [
      { idx: expect.any(String), text: `${a.fields.name} · finance`, selected: false },
      { idx: expect.any(String), text: `${b.fields.name} · viewer`, selected: false },
      { idx: expect.any(String), text: `${c.fields.name} · admin`, selected: true },
    ];
    // By name, whichever was chosen.
    expect(switcher(home.body)).toEqual(offered.sort((x, y) => x.text.localeCompare(y.text)));
    const idxOf = Object.fromEntries(switcher(home.body)!.map((o) => [o.text.split(' · ')[0], o.idx]));

    // Each business: its own payments only, and the role held there.
    const expectations: [Business, { csv: number; keys: number }][] = [
      [a, { csv: 200, keys: 403 }],
      [b, { csv: 403, keys: 403 }],
      [c, { csv: 200, keys: 200 }],
    ];
    for (const [shop, may] of expectations) {
      expect((await switchTo(person, idxOf[shop.fields.name])).location).toBe('/dashboard');
      const list = await person.get('/dashboard/transactions');
      expect(list.status).toBe(200);
      for (const other of shops) expect(list.body.includes(other.paid.pidx), `${shop.fields.name} shows ${other.fields.name}'s payment`).toBe(other === shop);
      expect((await person.get(`/dashboard/payments/${shop.paid.pidx}`)).status).toBe(200);
      for (const other of shops.filter((s) => s !== shop)) expect((await person.get(`/dashboard/payments/${other.paid.pidx}`)).status).toBe(404);
      expect((await person.get('/dashboard/transactions.csv')).status).toBe(may.csv);
      expect((await person.get('/dashboard/keys')).status).toBe(may.keys);
      expect(switcher((await person.get('/dashboard')).body)!.find((o) => o.selected)!.text.startsWith(shop.fields.name)).toBe(true);
    }
    // Their sessions page names the business each session looks at (C's, last switched to).
    expect(pageText((await person.get('/dashboard/account/sessions')).body)).toContain(c.fields.name);
    // The team page of each shows the one person once, with that team's role.
    const rows = (body: string) => [...body.matchAll(/<tr data-user="([^"]+)">[\s\S]*?data-role="(\w+)"/g)].filter((m) => m[1] === email).map((m) => m[2]);
    for (const [shop, role] of [
      [a, 'finance'],
      [b, 'viewer'],
      [c, 'admin'],
    ] as const) {
      expect(rows((await shop.browser.get('/dashboard/team')).body)).toEqual([role]);
    }
  });

  it('refuses a business the person is not a user of, known or not, alike; and a switch without the form token', async () => {
    const outsider = await business();
    const person = merchantBrowser(t.app);
    await person.logIn(email, password);
    const home = await person.get('/dashboard');
    const current = switcher(home.body)!.find((o) => o.selected)!;
    const [{ idx: outsiderIdx }] = await t.db.query<{ idx: string }>('SELECT idx FROM merchants WHERE id = $1', [outsider.merchantId]);
    await person.get('/dashboard');
    const theirs = await switchTo(person, outsiderIdx);
    await person.get('/dashboard');
    const nobody = await switchTo(person, 'no-such-business');
    expect(theirs.status).toBe(404);
    expect({ status: nobody.status, text: pageText(nobody.body) }).toEqual({ status: theirs.status, text: pageText(theirs.body) });
    expect(pageText(theirs.body)).not.toContain(outsider.fields.name);
    expect(switcher((await person.get('/dashboard')).body)!.find((o) => o.selected)).toEqual(current);
    expect((await person.get(`/dashboard/payments/${outsider.paid.pidx}`)).status).toBe(404);
    const forged = await person.post('/dashboard/switch-business', { business: switcher(home.body)!.find((o) => !o.selected)!.idx, csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    expect(switcher((await person.get('/dashboard')).body)!.find((o) => o.selected)).toEqual(current);
  });

  it("a team's two-factor rule holds for the person on that team only; while any team requires it, it stays on", async () => {
    const [, b, c] = shops;
    await enrolTotp(b.browser, t.clock.now());
    await b.browser.get('/dashboard/account');
    expect((await b.browser.post('/dashboard/account/team-two-factor', { required: 'yes' })).location).toBe('/dashboard/account?done=team-on');

    const person = merchantBrowser(t.app);
    await person.logIn(email, password);
    const idxOf = Object.fromEntries(switcher((await person.get('/dashboard')).body)!.map((o) => [o.text.split(' · ')[0], o.idx]));
    await person.get('/dashboard');
    expect((await switchTo(person, idxOf[b.fields.name])).location).toBe('/dashboard');
    for (const path of ['/dashboard', '/dashboard/transactions', `/dashboard/payments/${b.paid.pidx}`]) expect((await person.get(path)).location).toBe('/dashboard/account/two-factor');
    // The set-up page offers the person's other businesses, which do not require it.
    const setUp = await person.get('/dashboard/account/two-factor');
    expect(pageText(setUp.body)).toContain('Your team requires two-factor log-in.');
    expect(switcher(setUp.body)).toHaveLength(3);
    expect((await switchTo(person, idxOf[c.fields.name])).location).toBe('/dashboard');
    expect((await person.get('/dashboard/transactions')).status).toBe(200);

    // Enrolled (from C), they may go to B; and may not turn it off while B requires it, from C either.
    t.clock.advance(60);
    secret = (await enrolTotp(person, t.clock.now())).secret;
    await person.get('/dashboard');
    await switchTo(person, idxOf[b.fields.name]);
    expect((await person.get('/dashboard/transactions')).status).toBe(200);
    await person.get('/dashboard');
    await switchTo(person, idxOf[c.fields.name]);
    const account = await person.get('/dashboard/account');
    expect(account.body).not.toContain('action="/dashboard/account/two-factor/off"');
    expect(pageText(account.body)).toContain('A team you belong to requires two-factor, so it stays on.');
    const off = await person.post('/dashboard/account/two-factor/off', { off_code: '000000' });
    expect(off.status).toBe(409);
    // Their next log-in asks the code, on every business.
    const again = merchantBrowser(t.app);
    expect((await again.logIn(email, password)).location).toBe('/dashboard/login/code');
  });

  it('removed from one business, the person keeps the others: sessions on it end, the switcher drops it', async () => {
    const [a, b] = shops;
    const onA = merchantBrowser(t.app);
    // (Two-factor is on since the test before: log in with a code.)
    await onA.logIn(email, password);
    t.clock.advance(31);
    await onA.get('/dashboard/login/code');
    expect((await onA.post('/dashboard/login/code', { code: totpCode(secret, t.clock.now()) })).location).toBe('/dashboard');
    const idxOf = Object.fromEntries(switcher((await onA.get('/dashboard')).body)!.map((o) => [o.text.split(' · ')[0], o.idx]));
    await onA.get('/dashboard');
    await switchTo(onA, idxOf[a.fields.name]);
    const onB = merchantBrowser(t.app);
    await onB.logIn(email, password);
    t.clock.advance(31);
    await onB.get('/dashboard/login/code');
    await onB.post('/dashboard/login/code', { code: totpCode(secret, t.clock.now()) });
    await onB.get('/dashboard');
    await switchTo(onB, idxOf[b.fields.name]);

    const [{ id: userId }] = await t.db.query<{ id: number }>(
      'SELECT u.id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1 AND u.merchant_id = $2',
      [email, a.merchantId],
    );
    t.clock.advance(1);
    await a.browser.logIn(a.fields.email, a.fields.password);
    await a.browser.get('/dashboard/team');
    expect((await a.browser.post(`/dashboard/team/users/${userId}/remove`)).location).toBe('/dashboard/team?done=removed');

    // The session on A is over; the one on B goes on, and lists B and C only.
    expect((await onA.get('/dashboard')).location).toBe('/dashboard/login');
    const stillB = await onB.get('/dashboard/transactions');
    expect(stillB.status).toBe(200);
    expect(stillB.body).toContain(b.paid.pidx);
    expect(switcher(stillB.body)!.map((o) => o.text.split(' · ')[0])).toEqual(expect.arrayContaining([b.fields.name, shops[2].fields.name]));
    expect(switcher(stillB.body)).toHaveLength(2);
    await onB.get('/dashboard');
    expect((await switchTo(onB, idxOf[a.fields.name])).status).toBe(404);
    expect((await onB.get(`/dashboard/payments/${a.paid.pidx}`)).status).toBe(404);

    // Invited back, with two-factor on now: the page asks the password and a code, and counts wrong ones.
    const back = await invite(a, email, 'viewer');
    const elsewhere = merchantBrowser(t.app);
    const page = await elsewhere.get(back);
    expect(page.body).toContain('name="code"');
    const wrongCode = await elsewhere.post(back, { password, code: '000000' });
    expect(wrongCode.status).toBe(401);
    expect(pageText(wrongCode.body)).toContain('That code is not valid.');
    t.clock.advance(31);
    expect((await elsewhere.post(back, { password, code: totpCode(secret, t.clock.now()) })).location).toBe('/dashboard');
    const rejoined = await elsewhere.get('/dashboard');
    expect(switcher(rejoined.body)!.find((o) => o.selected)!.text).toBe(`${a.fields.name} · viewer`);
    expect(switcher(rejoined.body)).toHaveLength(3);
  });
});

describe('sign-up tells nobody who has an account', () => {
  /** The form as a person sends it, from a fresh browser: status, the page with the typed address taken out, the cookies set. */
  async function signUpAnswer(fields: { name: string; email: string; password: string }) {
    const browser = merchantBrowser(t.app);
    await browser.get('/dashboard/signup');
    const answer = await browser.post('/dashboard/signup', fields);
    return { status: answer.status, page: answer.body.split(fields.email).join('E-MAIL'), cookies: answer.setCookies.map((c) => c.split('=')[0]) };
  }

  it('an address with an account gets the answer a new one gets, and its owner an e-mail instead; nothing is created', async () => {
    const known = await business();
    const fresh = newEmail('fresh');
    const name = `Copycat ${Date.now()}`;
    const forKnown = await signUpAnswer({ name, email: known.fields.email.toUpperCase(), password: 'someone else 1' });
    const forNew = await signUpAnswer({ name, email: fresh, password: 'someone else 1' });
    expect(forKnown).toEqual(forNew);
    expect(forKnown.status).toBe(200);
    expect(pageText(forKnown.page)).toContain('We sent an e-mail to E-MAIL. Open the link in it to continue');

    // The owner hears of it by e-mail, with the way to log in or reset the password; the new address gets its link.
    await expect.poll(() => inbox.to(known.fields.email).some((m) => m.subject === 'Someone tried to sign up for Bhuktani with your e-mail')).toBe(true);
    const told = inbox.to(known.fields.email).find((m) => m.subject === 'Someone tried to sign up for Bhuktani with your e-mail')!;
    expect(told.text).toContain('you already have an account: nothing new was created');
    expect(told.text).toContain('http://bhuktani.test/dashboard/login');
    expect(told.text).toContain('http://bhuktani.test/dashboard/forgot-password');
    expect(told.text).not.toMatch(/\/dashboard\/signup\//);
    expect(told.text).not.toContain('someone else 1');
    await expect.poll(() => inbox.to(fresh).map((m) => m.subject)).toEqual(['Finish signing up for Bhuktani']);
    expect(inbox.to(fresh)[0].text).toMatch(/http:\/\/bhuktani\.test\/dashboard\/signup\/[\w-]{43}/);

    // Nothing was made for the known address, and its account is as it was.
    expect(await t.db.query('SELECT count(*)::int AS n FROM merchants WHERE name = $1', [name])).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM merchant_sign_ups WHERE lower(email) = lower($1) AND used_at IS NULL', [known.fields.email])).toEqual([{ n: 0 }]);
    expect((await merchantBrowser(t.app).logIn(known.fields.email, known.fields.password)).location).toBe('/dashboard');
    expect((await merchantBrowser(t.app).logIn(known.fields.email, 'someone else 1')).status).toBe(401);
  });

  it('hashes the password on both paths before answering, so the time taken does not tell either', async () => {
    // Counted, not timed: scrypt watched where Node gives it (the suite shares modules between files,
    // so the module that hashes cannot be replaced for this file alone); each answer comes after
    // exactly one hash of the password posted, finished.
    const scrypt = crypto.scrypt;
    let started = 0;
    let finished = 0;
    const watched = vi.spyOn(crypto, 'scrypt').mockImplementation(((password: string, ...rest: unknown[]) => {
      const done = rest.pop() as (error: Error | null, key: Buffer) => void;
      if (password === 'someone else 1') started += 1;
      (scrypt as (...args: unknown[]) => void)(password, ...rest, (error: Error | null, key: Buffer) => {
        if (password === 'someone else 1') finished += 1;
        done(error, key);
      });
    }) as typeof crypto.scrypt);
    syncBuiltinESMExports();
    onTestFinished(() => {
      watched.mockRestore();
      syncBuiltinESMExports();
    });
    const known = await business();
    for (const email of [known.fields.email, newEmail('hashed')]) {
      const browser = merchantBrowser(t.app);
      await browser.get('/dashboard/signup');
      [started, finished] = [0, 0];
      const answer = await browser.post('/dashboard/signup', { name: 'Hashed', email, password: 'someone else 1' });
      expect(answer.status).toBe(200);
      expect({ started, finished }).toEqual({ started: 1, finished: 1 });
    }
  });

  it('a mistyped form is refused alike for both, field by field', async () => {
    const known = await business();
    const bad = { name: '', password: 'short' };
    const forKnown = await signUpAnswer({ ...bad, email: known.fields.email });
    const forNew = await signUpAnswer({ ...bad, email: newEmail('fresh') });
    expect(forKnown.status).toBe(400);
    // The form comes back with its own token each time: compare the words.
    expect(pageText(forKnown.page)).toBe(pageText(forNew.page));
  });
});
