// The team page and invitations, through the dashboard's forms as a person would use them,
// with a real SMTP server in the test process receiving the e-mails: invite, follow the link, set a
// password; resend, revoke, expiry; change a role, remove a user (logged out at once), hand ownership
// over; the invitations of whoever is removed or may no longer invite revoked with it; the invitation
// e-mails a team may send a day; the team's log paged; and the e-mails to the owner when the team, the
// bank account or a live key changes.
import { describe, expect, it } from 'vitest';
import { addDays, dayStart, localDay } from '../local-days.js';
import { merchantBrowser, type MerchantBrowser, pageText, paidPayment, unverifiedSignUp } from '../../test/dashboard-client.js';
import { type MailInbox, withMailInbox } from '../../test/mail-inbox.js';
import { validApplication } from '../../test/merchant-approval.js';
import { loggedInAs, merchantOwnedBy, teamMember } from '../../test/team-client.js';
import { openTestDb, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let inbox: MailInbox;
withMailInbox((opened) => ({ t, inbox } = opened));

let counter = 0;
const newEmail = (what: string) => `${what}-${process.pid}-${Date.now()}-${++counter}@example.com`;

/** The invitation link of the last e-mail to `to`: absolute, on PUBLIC_URL. */
function linkIn(to: string): string {
  const mails = inbox.to(to);
  const mail = mails[mails.length - 1];
  expect(mail, `an e-mail to ${to}`).toBeDefined();
  return /http:\/\/bhuktani\.test(\/dashboard\/invitation\/[\w-]{43})/.exec(mail.text)![1];
}

/** A merchant signed up on the website, its owner logged in; `unconfirmed`: from before sign-ups confirmed the e-mail, sent the link. */
async function owner(options: { unconfirmed?: boolean } = {}) {
  const browser = merchantBrowser(t.app);
  const { fields, keys } = options.unconfirmed ? await unverifiedSignUp(t.ctx, browser) : await browser.signUp();
  if (options.unconfirmed) {
    await browser.get('/dashboard/account');
    expect((await browser.post('/dashboard/account/verify-email')).location).toBe('/dashboard/account?done=verify');
  }
  return { browser, fields, keys, merchantId: await merchantOwnedBy(t.db, fields.email) };
}

async function invite(browser: MerchantBrowser, email: string, role: string) {
  await browser.get('/dashboard/team');
  return browser.post('/dashboard/team/invite', { email, role });
}

/** The invitee follows the link and chooses a password: logged in. */
async function join(link: string, password = 'invitee password 1') {
  const invitee = merchantBrowser(t.app);
  const page = await invitee.get(link);
  expect(page.status, page.body.slice(0, 300)).toBe(200);
  const done = await invitee.post(link, { password, password_again: password });
  return { invitee, done };
}

/**
 * A browser that follows dead links. They count against the address they come from (every e-mailed
 * link's, people/link-guesses.ts), and on PostgreSQL the test files share one store: this file's dead
 * links come from an address of its own, so they never add up with another file's.
 */
const deadLinkVisitor = () => merchantBrowser(t.app, { remoteAddress: '192.0.2.31' });

const teamRows = (body: string) =>
  [...body.matchAll(/<tr data-user="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({ email: m[1], role: /data-role="(\w+)"/.exec(m[2])![1], twoFactor: /data-two-factor="(\w+)"/.exec(m[2])![1] }));

const waitForMail = (to: string, count: number) => expect.poll(() => inbox.to(to).length).toBeGreaterThanOrEqual(count);

describe('invitations', () => {
  it('invite a developer by e-mail: the link sets a password and logs them in; keys yes, refunds no', async () => {
    const o = await owner();
    const paid = await paidPayment(t.app, o.keys.test);
    const email = newEmail('developer');
    const sent = await invite(o.browser, email, 'developer');
    expect(sent.status).toBe(303);
    expect(sent.location).toBe('/dashboard/team?done=invited');

    const mail = inbox.to(email)[0];
    expect(mail.from).toBe('no-reply@bhuktani.test');
    expect(mail.subject).toBe(`Your invitation to ${o.fields.name}'s team on the Bhuktani merchant dashboard`);
    expect(mail.text).toContain(`${o.fields.email} invited you`);
    expect(mail.text).toContain('as developer');
    expect(mail.html).not.toMatch(/<img/i);
    const link = linkIn(email);
    expect(mail.html).toContain(link);
    // Only the token's SHA-256 is stored.
    const token = link.split('/').pop()!;
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM merchant_invitations WHERE email = $1', [email]);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);

    const team = await o.browser.get('/dashboard/team');
    expect(pageText(team.body)).toContain(`${email} developer`);

    const invitee = merchantBrowser(t.app);
    const page = await invitee.get(link);
    expect(pageText(page.body)).toContain(`Join ${o.fields.name}`);
    expect(pageText(page.body)).toContain('You are invited as developer');
    expect((await invitee.post(link, { password: 'long enough 1', password_again: 'different 1' })).status).toBe(400);
    const short = await invitee.post(link, { password: 'short', password_again: 'short' });
    expect(short.status).toBe(400);
    expect(pageText(short.body)).toContain('Use at least 8 characters.');
    const joined = await invitee.post(link, { password: 'developer password', password_again: 'developer password' });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/dashboard');

    const keys = await invitee.get('/dashboard/keys');
    expect(keys.status).toBe(200);
    expect(keys.body).toContain('action="/dashboard/keys/rotate"');
    const payment = await invitee.get(`/dashboard/payments/${paid.pidx}`);
    expect(payment.status).toBe(200);
    expect(payment.body).not.toContain('/refund');
    const refund = await invitee.post(`/dashboard/payments/${paid.pidx}/refund/confirm`, { amount_paisa: '100', refunded_before: '0' });
    expect(refund.status).toBe(403);
    expect(pageText(refund.body)).toContain('Not allowed for your role');
    expect(Number((await t.db.query<{ refunded_amount: string }>('SELECT refunded_amount FROM payments WHERE pidx = $1', [paid.pidx]))[0].refunded_amount)).toBe(0);

    // A user now, e-mail verified, with the role; the link is spent; the owner heard of it.
    const [user] = await t.db.query<{ role: string; verified: boolean; merchant_id: number }>('SELECT u.role, p.email_verified_at IS NOT NULL AS verified, u.merchant_id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1', [email]);
    expect({ ...user, merchant_id: Number(user.merchant_id) }).toEqual({ role: 'developer', verified: true, merchant_id: o.merchantId });
    expect((await deadLinkVisitor().get(link)).status).toBe(404);
    await waitForMail(o.fields.email, 1);
    expect(inbox.to(o.fields.email).map((m) => m.subject)).toContain(`A new user joined your team · ${o.fields.name}`);
    expect(teamRows((await o.browser.get('/dashboard/team')).body)).toEqual([
      { email: o.fields.email, role: 'owner', twoFactor: 'off' },
      { email, role: 'developer', twoFactor: 'off' },
    ]);
    // And it logs in with its own password.
    expect((await merchantBrowser(t.app).logIn(email, 'developer password')).status).toBe(303);
  });

  it('invites a user of another business exactly as a new address (nothing tells who has an account); refuses one of this team, an owner role, a bad e-mail', async () => {
    const o = await owner();
    const other = await owner();
    // The same form twice, for an address with an account elsewhere and for a new one: the same answers.
    const known = await invite(o.browser, other.fields.email.toUpperCase(), 'viewer');
    const unknown = await invite(o.browser, newEmail('unknown'), 'viewer');
    expect({ status: known.status, location: known.location, body: known.body }).toEqual({ status: unknown.status, location: unknown.location, body: unknown.body });
    expect(known.location).toBe('/dashboard/team?done=invited');
    const shown = (body: string, email: string) => pageText(body).replace(/\S+@example\.com/gi, 'E-MAIL').replace(email, 'E-MAIL');
    const page = (await o.browser.get('/dashboard/team')).body;
    expect(teamRows(page)).toHaveLength(1);

    const mine = await invite(o.browser, o.fields.email, 'viewer');
    expect(mine.status).toBe(409);
    expect(pageText(mine.body)).toContain(`${o.fields.email} is in your team already.`);
    const asOwner = await invite(o.browser, newEmail('owner'), 'owner');
    expect(asOwner.status).toBe(400);
    expect(pageText(asOwner.body)).toContain('Ownership is handed over, not given.');
    expect((await invite(o.browser, 'not an e-mail', 'viewer')).status).toBe(400);
    const twice = newEmail('twice');
    expect((await invite(o.browser, twice, 'viewer')).status).toBe(303);
    // A second invitation to an address with an account answers as for one without: "invited already".
    const again = [await invite(o.browser, twice, 'finance'), await invite(o.browser, other.fields.email, 'finance')];
    expect(again.map((a) => a.status)).toEqual([409, 409]);
    expect(shown(again[0].body, twice)).toBe(shown(again[1].body, other.fields.email));
    expect((await t.db.query<{ email: string }>('SELECT email FROM merchant_invitations WHERE merchant_id = $1 ORDER BY id', [o.merchantId])).map((r) => r.email.toLowerCase())).toHaveLength(3);
  });

  it('two merchants invite the same new address: the first link accepted makes the account, the second joins it with its password', async () => {
    const a = await owner();
    const b = await owner();
    const email = newEmail('wanted');
    expect((await invite(a.browser, email, 'viewer')).status).toBe(303);
    const aLink = linkIn(email);
    expect((await invite(b.browser, email, 'admin')).status).toBe(303);
    const bLink = linkIn(email);
    expect((await join(aLink, 'the one password')).done.status).toBe(303);
    const late = merchantBrowser(t.app);
    const page = await late.get(bLink);
    expect(pageText(page.body)).toContain('You have a Bhuktani account with this address');
    expect(page.body).not.toContain('name="password_again"');
    const wrong = await late.post(bLink, { password: 'another password' });
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.body)).toContain('That is not the password of this account.');
    const joined = await late.post(bLink, { password: 'the one password' });
    expect(joined.status).toBe(303);
    const users = await t.db.query<{ merchant_id: number; role: string }>('SELECT u.merchant_id, u.role FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1 AND u.removed_at IS NULL ORDER BY u.id', [email]);
    expect(users.map((u) => [Number(u.merchant_id), u.role])).toEqual([
      [a.merchantId, 'viewer'],
      [b.merchantId, 'admin'],
    ]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM merchant_people WHERE lower(email) = lower($1)', [email])).toEqual([{ n: 1 }]);
  });

  it('resend gives a new link (the old one stops), revoke ends it, and a link is good for 7 days only', async () => {
    const o = await owner();
    const email = newEmail('resent');
    await invite(o.browser, email, 'finance');
    const first = linkIn(email);
    const [{ id }] = await t.db.query<{ id: number }>('SELECT id FROM merchant_invitations WHERE email = $1', [email]);
    await o.browser.get('/dashboard/team');
    expect((await o.browser.post(`/dashboard/team/invitations/${id}/resend`)).location).toBe('/dashboard/team?done=resent');
    const second = linkIn(email);
    expect(second).not.toBe(first);
    expect((await deadLinkVisitor().get(first)).status).toBe(404);
    expect((await merchantBrowser(t.app).get(second)).status).toBe(200);
    expect((await o.browser.post(`/dashboard/team/invitations/${id}/revoke`)).location).toBe('/dashboard/team?done=revoked');
    expect((await deadLinkVisitor().get(second)).status).toBe(404);
    expect((await o.browser.post(`/dashboard/team/invitations/${id}/revoke`)).status).toBe(404);

    const later = newEmail('later');
    await invite(o.browser, later, 'viewer');
    const link = linkIn(later);
    t.clock.advance(7 * 24 * 3600 - 60);
    expect((await merchantBrowser(t.app).get(link)).status).toBe(200);
    t.clock.advance(61);
    const expired = await deadLinkVisitor().get(link);
    expect(expired.status).toBe(404);
    expect(pageText(expired.body)).toContain('more than 7 days old');
    // (The owner's session has ended meanwhile too: 12 hours.)
    const ownerAgain = await loggedInAs(t.app, o.fields);
    expect(pageText((await ownerAgain.get('/dashboard/team')).body)).toContain(`${later} viewer Expired`);
  });

  it('another merchant cannot resend, revoke or see an invitation, nor touch a user, by its id', async () => {
    const a = await owner();
    const b = await owner();
    const email = newEmail('a-invited');
    await invite(a.browser, email, 'viewer');
    const [{ id }] = await t.db.query<{ id: number }>('SELECT id FROM merchant_invitations WHERE email = $1', [email]);
    const aViewer = await teamMember(t.ctx, a.merchantId, 'viewer');
    await b.browser.get('/dashboard/team');
    for (const url of [`/dashboard/team/invitations/${id}/resend`, `/dashboard/team/invitations/${id}/revoke`, `/dashboard/team/users/${aViewer.id}/remove`]) {
      expect((await b.browser.post(url)).status, url).toBe(404);
    }
    expect((await b.browser.post(`/dashboard/team/users/${aViewer.id}/role`, { role: 'admin' })).status).toBe(404);
    expect((await b.browser.post('/dashboard/team/transfer', { user_id: String(aViewer.id) })).status).toBe(404);
    const bTeam = pageText((await b.browser.get('/dashboard/team')).body);
    expect(bTeam).not.toContain(email);
    expect(bTeam).not.toContain(aViewer.email);
    expect(inbox.to(email)).toHaveLength(1);
    expect(await t.db.query('SELECT role, removed_at FROM merchant_users WHERE id = $1', [aViewer.id])).toEqual([{ role: 'viewer', removed_at: null }]);
  });
});

describe('managing the team', () => {
  it('a role change applies at once to the user’s open session, and the owner is told', async () => {
    const o = await owner();
    const dev = await teamMember(t.ctx, o.merchantId, 'developer');
    const devBrowser = await loggedInAs(t.app, dev);
    expect((await devBrowser.get('/dashboard/keys')).status).toBe(200);
    await o.browser.get('/dashboard/team');
    expect((await o.browser.post(`/dashboard/team/users/${dev.id}/role`, { role: 'finance' })).location).toBe('/dashboard/team?done=role');
    expect((await devBrowser.get('/dashboard/keys')).status).toBe(403);
    expect((await devBrowser.get('/dashboard/transactions.csv')).status).toBe(200);
    await waitForMail(o.fields.email, 1);
    const notice = inbox.to(o.fields.email).find((m) => m.subject.startsWith("A team member's role changed"))!;
    expect(notice.text).toContain(`${dev.email}: developer → finance.`);
    expect(notice.text).toContain(`by ${o.fields.email}`);
    expect((await o.browser.post(`/dashboard/team/users/${dev.id}/role`, { role: 'owner' })).status).toBe(400);
    expect(pageText((await o.browser.get('/dashboard/team')).body)).toContain(`${o.fields.email} changed the role of ${dev.email} (developer → finance)`);
  });

  it('removing a user ends their sessions at once; the owner can be neither removed nor demoted', async () => {
    const o = await owner();
    const admin = await teamMember(t.ctx, o.merchantId, 'admin');
    const finance = await teamMember(t.ctx, o.merchantId, 'finance');
    const adminBrowser = await loggedInAs(t.app, admin);
    const financeBrowser = await loggedInAs(t.app, finance);
    const [{ ownerId }] = await t.db.query<{ ownerId: number }>(`SELECT id AS "ownerId" FROM merchant_users WHERE merchant_id = $1 AND role = 'owner'`, [o.merchantId]);

    await adminBrowser.get('/dashboard/team');
    const removeOwner = await adminBrowser.post(`/dashboard/team/users/${ownerId}/remove`);
    expect(removeOwner.status).toBe(409);
    expect(pageText(removeOwner.body)).toContain('The owner cannot be removed.');
    const demoteOwner = await adminBrowser.post(`/dashboard/team/users/${ownerId}/role`, { role: 'viewer' });
    expect(demoteOwner.status).toBe(409);
    expect((await adminBrowser.post('/dashboard/team/transfer', { user_id: String(admin.id) })).status).toBe(403);

    expect((await adminBrowser.post(`/dashboard/team/users/${finance.id}/remove`)).location).toBe('/dashboard/team?done=removed');
    expect(await t.db.query('SELECT 1 FROM merchant_sessions WHERE user_id = $1', [finance.id])).toEqual([]);
    const after = await financeBrowser.get('/dashboard');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/dashboard/login');
    expect((await merchantBrowser(t.app).logIn(finance.email, finance.password)).status).toBe(401);
    await waitForMail(o.fields.email, 1);
    expect(inbox.to(o.fields.email).map((m) => m.subject)).toContain(`A user was removed from your team · ${o.fields.name}`);

    // An admin who removes themselves is logged out too; the owner stays.
    expect((await adminBrowser.post(`/dashboard/team/users/${admin.id}/remove`)).location).toBe('/dashboard/login');
    expect(teamRows((await o.browser.get('/dashboard/team')).body).map((r) => r.role)).toEqual(['owner']);
  });

  it('the owner hands ownership over: one transaction, exactly one owner, both told', async () => {
    const o = await owner();
    const admin = await teamMember(t.ctx, o.merchantId, 'developer');
    await o.browser.get('/dashboard/team');
    expect((await o.browser.post('/dashboard/team/transfer', { user_id: 'x' })).status).toBe(404);
    const done = await o.browser.post('/dashboard/team/transfer', { user_id: String(admin.id) });
    expect(done.location).toBe('/dashboard/team?done=transferred');
    const roles = await t.db.query<{ email: string; role: string }>('SELECT p.email, u.role FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE u.merchant_id = $1 AND u.removed_at IS NULL ORDER BY u.id', [o.merchantId]);
    expect(roles).toEqual([
      { email: o.fields.email, role: 'admin' },
      { email: admin.email, role: 'owner' },
    ]);
    // The old owner, an admin now, may not hand over again, nor demote the new owner.
    const page = await o.browser.get('/dashboard/team');
    expect(page.body).not.toContain('action="/dashboard/team/transfer"');
    expect((await o.browser.post('/dashboard/team/transfer', { user_id: String(admin.id) })).status).toBe(403);
    await waitForMail(admin.email, 1);
    await waitForMail(o.fields.email, 1);
    for (const to of [admin.email, o.fields.email]) expect(inbox.to(to).map((m) => m.subject)).toContain(`Ownership was handed over · ${o.fields.name}`);
  });

  it('a viewer sees the team but no forms, and every team form posted by hand is refused', async () => {
    const o = await owner();
    const viewer = await teamMember(t.ctx, o.merchantId, 'viewer');
    const browser = await loggedInAs(t.app, viewer);
    const page = await browser.get('/dashboard/team');
    expect(page.status).toBe(200);
    expect(page.body).not.toMatch(/action="\/dashboard\/team\//);
    for (const url of ['/dashboard/team/invite', `/dashboard/team/users/${viewer.id}/role`, `/dashboard/team/users/${viewer.id}/remove`, '/dashboard/team/transfer']) {
      const answer = await browser.post(url, { email: newEmail('by-viewer'), role: 'admin', user_id: String(viewer.id) });
      expect(answer.status, url).toBe(403);
    }
    expect(await t.db.query('SELECT 1 FROM merchant_invitations WHERE merchant_id = $1', [o.merchantId])).toEqual([]);
    expect(await t.db.query('SELECT role FROM merchant_users WHERE id = $1', [viewer.id])).toEqual([{ role: 'viewer' }]);
  });
});

describe('e-mails to the owner', () => {
  it('when the bank account is set and when a live key is rotated (not a test key)', async () => {
    const o = await owner();
    const admin = await teamMember(t.ctx, o.merchantId, 'admin');
    const browser = await loggedInAs(t.app, admin);
    await browser.get('/dashboard/business');
    expect((await browser.post('/dashboard/business', validApplication({ account_number: '0012-3456-7890' }))).status).toBe(303);
    await waitForMail(o.fields.email, 1);
    const bank = inbox.to(o.fields.email).find((m) => m.subject.startsWith('The settlement bank account was set'))!;
    expect(bank.text).toContain(`by ${admin.email}`);
    expect(bank.text).toContain('account ••••7890');
    expect(bank.text).not.toContain('001234567890');

    const before = inbox.to(o.fields.email).length;
    await browser.get('/dashboard/keys');
    await browser.post('/dashboard/keys/rotate/confirm', { environment: 'test', grace: '0' });
    await browser.post('/dashboard/keys/rotate/confirm', { environment: 'live', grace: '3600' });
    await waitForMail(o.fields.email, before + 1);
    const rotated = inbox.to(o.fields.email).slice(before);
    expect(rotated.map((m) => m.subject)).toEqual([`A live secret key was rotated · ${o.fields.name}`]);
    expect(rotated[0].text).toContain('The old live key works until');
    expect(rotated[0].text).not.toMatch(/live_secret_key_[0-9a-f]{32}/);
  });
});

/** The owner follows the e-mail verification link they were sent (a sign-up's link confirmed it already). */
async function confirmEmail(o: Awaited<ReturnType<typeof owner>>) {
  const [{ confirmed }] = await t.db.query<{ confirmed: boolean }>('SELECT email_verified_at IS NOT NULL AS confirmed FROM merchant_people WHERE email = $1', [o.fields.email]);
  if (confirmed) return;
  await waitForMail(o.fields.email, 1);
  const mail = inbox.to(o.fields.email).find((m) => m.subject.startsWith('Confirm your e-mail'))!;
  const link = /http:\/\/bhuktani\.test(\/dashboard\/verify-email\/[\w-]{43})/.exec(mail.text)![1];
  expect((await o.browser.get(link)).location).toBe('/dashboard/account?done=verified');
}

const openInvitations = (merchantId: number) =>
  t.db.query<{ email: string }>('SELECT email FROM merchant_invitations WHERE merchant_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL ORDER BY id', [merchantId]);
const logLines = async (browser: MerchantBrowser) => [...(await browser.get('/dashboard/team')).body.matchAll(/<li data-action="[^"]+">([\s\S]*?)<\/li>/g)].map((m) => pageText(m[1]).replace(/^\d+ \w+ \d+, [\d:]+ /, ''));

describe('invitations of whoever may no longer invite', () => {
  it('removing an admin revokes the open invitations they sent, in the same change, each in the log; the owner’s e-mail says so; the links die', async () => {
    const o = await owner();
    await confirmEmail(o);
    const admin = await teamMember(t.ctx, o.merchantId, 'admin');
    const other = await teamMember(t.ctx, o.merchantId, 'admin');
    const adminBrowser = await loggedInAs(t.app, admin);
    const [mine, resentByOther, ownersOwn] = [newEmail('by-admin'), newEmail('resent-by-other'), newEmail('by-owner')];
    expect((await invite(adminBrowser, mine, 'admin')).status).toBe(303);
    expect((await invite(adminBrowser, resentByOther, 'viewer')).status).toBe(303);
    expect((await invite(o.browser, ownersOwn, 'finance')).status).toBe(303);
    // Whoever sends an invitation again makes it theirs: the e-mail now names them.
    const otherBrowser = await loggedInAs(t.app, other);
    const [{ id: resentId }] = await t.db.query<{ id: number }>('SELECT id FROM merchant_invitations WHERE email = $1', [resentByOther]);
    await otherBrowser.get('/dashboard/team');
    expect((await otherBrowser.post(`/dashboard/team/invitations/${resentId}/resend`)).location).toBe('/dashboard/team?done=resent');
    expect(inbox.to(resentByOther).at(-1)!.text).toContain(`${other.email} invited you`);
    const mineLink = linkIn(mine);

    expect((await o.browser.post(`/dashboard/team/users/${admin.id}/remove`)).location).toBe('/dashboard/team?done=removed');
    expect((await openInvitations(o.merchantId)).map((r) => r.email)).toEqual([resentByOther, ownersOwn]);
    const dead = await deadLinkVisitor().get(mineLink);
    expect(dead.status).toBe(404);
    expect(pageText(dead.body)).toContain('It was used already, revoked, or is more than 7 days old.');
    expect((await merchantBrowser(t.app).get(linkIn(resentByOther))).status).toBe(200);
    expect((await merchantBrowser(t.app).get(linkIn(ownersOwn))).status).toBe(200);
    const team = await o.browser.get('/dashboard/team');
    expect(pageText(team.body)).not.toContain(`${mine} admin`);
    expect((await logLines(o.browser)).slice(0, 2)).toEqual([
      `${o.fields.email} revoked the invitation of ${mine} (admin, sent by ${admin.email}, who was removed)`,
      `${o.fields.email} removed ${admin.email} (admin)`,
    ]);
    await waitForMail(o.fields.email, 2);
    const told = inbox.to(o.fields.email).find((m) => m.subject.startsWith('A user was removed'))!;
    expect(told.text).toContain(`Their open invitations were revoked: ${mine} (admin).`);
  });

  it('an admin made developer loses the invitations they sent, one made admin keeps none to lose, and the owner who hands over keeps theirs as admin', async () => {
    const o = await owner();
    const admin = await teamMember(t.ctx, o.merchantId, 'admin');
    const adminBrowser = await loggedInAs(t.app, admin);
    const [byAdmin, byOwner] = [newEmail('by-demoted'), newEmail('by-handing-over')];
    expect((await invite(adminBrowser, byAdmin, 'viewer')).status).toBe(303);
    expect((await invite(o.browser, byOwner, 'developer')).status).toBe(303);

    expect((await o.browser.post(`/dashboard/team/users/${admin.id}/role`, { role: 'developer' })).location).toBe('/dashboard/team?done=role');
    expect((await openInvitations(o.merchantId)).map((r) => r.email)).toEqual([byOwner]);
    expect((await deadLinkVisitor().get(linkIn(byAdmin))).status).toBe(404);
    expect((await logLines(o.browser))[0]).toBe(`${o.fields.email} revoked the invitation of ${byAdmin} (viewer, sent by ${admin.email}, who is developer now and may not invite)`);
    await waitForMail(o.fields.email, 2);
    expect(inbox.to(o.fields.email).find((m) => m.subject.startsWith("A team member's role changed"))!.text).toContain(`Their open invitations were revoked: ${byAdmin} (viewer).`);

    // Back to admin: nothing comes back, nothing else goes.
    expect((await o.browser.post(`/dashboard/team/users/${admin.id}/role`, { role: 'admin' })).location).toBe('/dashboard/team?done=role');
    expect((await openInvitations(o.merchantId)).map((r) => r.email)).toEqual([byOwner]);

    // The owner hands over and is an admin now, who may invite: their invitation stays.
    expect((await o.browser.post('/dashboard/team/transfer', { user_id: String(admin.id) })).location).toBe('/dashboard/team?done=transferred');
    expect((await openInvitations(o.merchantId)).map((r) => r.email)).toEqual([byOwner]);
    expect((await join(linkIn(byOwner))).done.location).toBe('/dashboard');
  });
});

describe('invitation e-mails a day', () => {
  const sentTo = (email: string) => inbox.to(email).length;
  const scopeCount = async (scope: string) => (await t.db.query<{ failures: number }>('SELECT failures FROM login_failures WHERE scope = $1', [scope]))[0]?.failures;
  const idOf = async (email: string) => (await t.db.query<{ id: number }>('SELECT id FROM merchant_invitations WHERE email = $1', [email]))[0].id;
  const tomorrowIn = () => Math.ceil((dayStart(addDays(localDay(t.clock.now(), t.ctx.config.timeZone), 1), t.ctx.config.timeZone).getTime() - t.clock.now().getTime()) / 1000);

  it('before the owner confirms their e-mail a team sends 3 a day, invitations and resends alike; the 4th is refused on the page (429), nothing sent, nothing changed', async () => {
    const o = await owner({ unconfirmed: true });
    const [first, second, third] = [newEmail('first'), newEmail('second'), newEmail('third')];
    expect((await invite(o.browser, first, 'viewer')).status).toBe(303);
    expect((await o.browser.post(`/dashboard/team/invitations/${await idOf(first)}/resend`)).status).toBe(303);
    expect((await invite(o.browser, second, 'viewer')).status).toBe(303);
    expect(sentTo(first) + sentTo(second)).toBe(3);
    const lastLink = linkIn(first);
    const [{ token_hash: tokenHash }] = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM merchant_invitations WHERE email = $1', [first]);
    const logBefore = await logLines(o.browser);

    const resend = await o.browser.post(`/dashboard/team/invitations/${await idOf(first)}/resend`);
    expect(resend.status).toBe(429);
    expect(Number(resend.headers['retry-after'])).toBe(tomorrowIn());
    const said = pageText(resend.body);
    expect(resend.body).toContain('<h1 class="page-title">Team</h1>');
    expect(said).toContain('Your team has sent its 3 invitation e-mails for today: 3 a day until the owner confirms their e-mail address, 50 after. Nothing was sent. Try again tomorrow (after midnight, Asia/Kathmandu).');
    expect(resend.body).toContain('class="alert');
    const invited = await invite(o.browser, third, 'viewer');
    expect(invited.status).toBe(429);
    expect(pageText(invited.body)).toContain('Your team has sent its 3 invitation e-mails for today');

    // Nothing went out, and nothing changed: the last link still works, no new invitation, no log line, the count as it was.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([sentTo(first), sentTo(second), sentTo(third)]).toEqual([2, 1, 0]);
    expect(await t.db.query('SELECT token_hash FROM merchant_invitations WHERE email = $1', [first])).toEqual([{ token_hash: tokenHash }]);
    expect((await merchantBrowser(t.app).get(lastLink)).status).toBe(200);
    expect(await t.db.query('SELECT 1 FROM merchant_invitations WHERE email = $1', [third])).toEqual([]);
    expect(await logLines(o.browser)).toEqual(logBefore);
    expect(await scopeCount(`invitation-mail:merchant:${o.merchantId}`)).toBe(3);

    // Confirming the e-mail opens the team's day to 50.
    await confirmEmail(o);
    expect((await invite(o.browser, third, 'viewer')).status).toBe(303);
    expect(sentTo(third)).toBe(1);
  });

  it('one address gets 3 a day from a team; a confirmed team sends 50 a day; both start again the next day', async () => {
    const o = await owner();
    await confirmEmail(o);
    const wanted = newEmail('wanted');
    expect((await invite(o.browser, wanted, 'developer')).status).toBe(303);
    const id = await idOf(wanted);
    for (let i = 0; i < 2; i += 1) expect((await o.browser.post(`/dashboard/team/invitations/${id}/resend`)).status).toBe(303);
    const fourth = await o.browser.post(`/dashboard/team/invitations/${id}/resend`);
    expect(fourth.status).toBe(429);
    expect(pageText(fourth.body)).toContain(`${wanted} was sent 3 invitation e-mails today, the most one address gets in a day. Nothing was sent.`);
    expect(sentTo(wanted)).toBe(3);

    // 47 more addresses make the team's 50.
    for (let i = 0; i < 47; i += 1) expect((await o.browser.post('/dashboard/team/invite', { email: newEmail(`many-${i}`), role: 'viewer' })).status, `invitation ${i + 4}`).toBe(303);
    const fiftyFirst = newEmail('fifty-first');
    const refused = await o.browser.post('/dashboard/team/invite', { email: fiftyFirst, role: 'viewer' });
    expect(refused.status).toBe(429);
    expect(pageText(refused.body)).toContain('Your team has sent its 50 invitation e-mails for today (invitations and resends alike). Nothing was sent.');

    // The next day (in TIME_ZONE) both counts start again.
    t.clock.advance(tomorrowIn());
    const again = await loggedInAs(t.app, o.fields);
    expect((await invite(again, fiftyFirst, 'viewer')).status).toBe(303);
    expect((await again.post(`/dashboard/team/invitations/${id}/resend`)).status).toBe(303);
    await waitForMail(wanted, 4);
    expect(sentTo(fiftyFirst)).toBe(1);
  });

  it('counts in the database: e-mails sent through two instances on one store add up', async () => {
    const other = await startTestApp({ config: inbox.config, db: process.env.DATABASE_URL?.startsWith('postgres') ? await openTestDb() : t.db });
    try {
      other.clock.advance((t.clock.now().getTime() - other.clock.now().getTime()) / 1000);
      const o = await owner({ unconfirmed: true });
      const onOther = await loggedInAs(other.app, o.fields);
      expect((await invite(o.browser, newEmail('on-a'), 'viewer')).status).toBe(303);
      expect((await invite(onOther, newEmail('on-b'), 'viewer')).status).toBe(303);
      expect((await invite(o.browser, newEmail('on-a-again'), 'viewer')).status).toBe(303);
      const refused = await invite(onOther, newEmail('one-too-many'), 'viewer');
      expect(refused.status).toBe(429);
    } finally {
      await other.close();
      if (process.env.DATABASE_URL?.startsWith('postgres')) await other.db.close();
    }
  });
});

describe("the team's log", () => {
  it('pages 20 lines at a time, newest first, older by keyset, back to the newest; another team’s lines never', async () => {
    const o = await owner();
    const other = await owner();
    const member = await teamMember(t.ctx, o.merchantId, 'developer');
    // 45 role changes: 45 lines.
    const roles = ['finance', 'viewer', 'developer'] as const;
    for (let i = 0; i < 45; i += 1) {
      expect((await o.browser.post(`/dashboard/team/users/${member.id}/role`, { role: roles[i % 3] })).status).toBe(303);
      if (i === 20) expect((await other.browser.post('/dashboard/team/invite', { email: newEmail('other-team'), role: 'viewer' })).status).toBe(303);
    }
    const first = await o.browser.get('/dashboard/team');
    const firstLines = await logLines(o.browser);
    expect(firstLines).toHaveLength(20);
    expect(first.body).not.toContain('>Newest<');
    const older = /<a class="button small" rel="next" href="([^"]+)">/.exec(first.body)![1].replace(/&amp;/g, '&');
    expect(older).toMatch(/^\/dashboard\/team\?before=\d+#log-heading$/);
    const second = await o.browser.get(older.split('#')[0]);
    const secondLines = [...second.body.matchAll(/<li data-action="[^"]+">([\s\S]*?)<\/li>/g)].map((m) => m[1]);
    expect(secondLines).toHaveLength(20);
    expect(second.body).toContain('href="/dashboard/team#log-heading">Newest</a>');
    const third = await o.browser.get(/<a class="button small" rel="next" href="([^"#]+)/.exec(second.body)![1]);
    const thirdLines = [...third.body.matchAll(/<li data-action="([^"]+)">/g)].map((m) => m[1]);
    // 45 role changes, the sign-up's lines before them (none here): 5 on the last page, and no older link.
    expect(thirdLines).toEqual(['role_change', 'role_change', 'role_change', 'role_change', 'role_change']);
    expect(third.body).not.toContain('rel="next"');
    expect(pageText(third.body)).not.toContain('other-team');
    const ids = await t.db.query<{ id: number }>('SELECT id FROM merchant_team_events WHERE merchant_id = $1 ORDER BY id', [o.merchantId]);
    expect(ids).toHaveLength(45);
    // A page past the oldest line says so; a garbled `before` is the first page.
    expect(pageText((await o.browser.get(`/dashboard/team?before=${ids[0].id}`)).body)).toContain('No older lines.');
    expect(await logLines(o.browser)).toEqual(firstLines);
    expect(pageText((await o.browser.get('/dashboard/team?before=abc')).body)).toContain(firstLines[0]);
  });
});
