// The operators page as an admin uses it: invitations (the e-mail written to the log, no SMTP here),
// enrolment, roles, removal; the invitations of an admin removed or demoted revoked with it; the
// invitation e-mails an admin may send a day; and the last admin kept.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../audit/audit-store.js';
import { addDays, dayStart, localDay } from '../local-days.js';
import { enrolFromLink, invitationLinkFor, newOperator, operatorBrowser, type OperatorBrowser, type TestOperator } from '../../test/console-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

let counter = 0;
const uniqueEmail = (what: string) => `${what}-${process.pid}-${Date.now()}-${++counter}@example.com`;

describe('operators: invitations, roles and removal', () => {
  let t: TestApp;
  let admin: TestOperator;
  let adminBrowser: OperatorBrowser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await newOperator(t.ctx, 'admin');
  });
  afterAll(() => t.close());
  // Each test moves the clock as it needs (expiries), so each starts with a fresh admin session; a
  // TOTP code works once, so the app's next code is 30 s later.
  beforeEach(async () => {
    t.clock.advance(30);
    adminBrowser = operatorBrowser(t.app, t.ctx);
    expect((await adminBrowser.signIn(admin)).status).toBe(303);
  });

  // Dead links count against the address they come from (people/link-guesses.ts), and on PostgreSQL
  // the test files share one store: this file's dead links come from an address of its own.
  const deadLinkVisitor = () => operatorBrowser(t.app, t.ctx, { remoteAddress: '192.0.2.32' });

  const invite = async (email: string, role = 'support') => {
    await adminBrowser.get('/console/operators');
    return adminBrowser.post('/console/operators/invite', { email, role });
  };

  it('invites by e-mail; the invited operator sets a password, enrols TOTP from the QR page, gets recovery codes and is signed in', async () => {
    const email = uniqueEmail('invited');
    const sent = await invite(email, 'finance');
    expect(sent.location).toBe('/console/operators?done=invited');
    const link = invitationLinkFor(t.logs, email)!;
    expect(link).toBeDefined();
    const listed = await adminBrowser.get('/console/operators');
    expect(pageText(listed.body)).toContain(email);

    const newcomer = operatorBrowser(t.app, t.ctx);
    const invitation = await newcomer.get(link);
    expect(invitation.status).toBe(200);
    expect(pageText(invitation.body)).toContain(`invited as finance with the e-mail ${email}`);
    const { enrolPage, done, recoveryCodes } = await enrolFromLink(newcomer, link, 'newcomer password 1');
    expect(enrolPage.body).toMatch(/<svg[^>]*>[\s\S]*<path/);
    expect(done.status).toBe(200);
    expect(recoveryCodes).toHaveLength(10);
    const home = await newcomer.get('/console');
    expect(home.status).toBe(200);
    expect(pageText(home.body)).toContain(email);
    expect(pageText(home.body)).toContain('finance');

    // The link worked once.
    expect((await deadLinkVisitor().get(link)).status).toBe(404);
    const [joined] = await listAudit(t.db, { action: 'operator.join', limit: 1 });
    expect(joined.actor.label).toBe(email);
    const [invited] = await listAudit(t.db, { operatorId: admin.id, action: 'operator.invite', limit: 1 });
    expect(invited.after).toEqual({ email, role: 'finance' });
  });

  it('refuses an invitation link after 7 days, and a revoked one; a resent one replaces the old link', async () => {
    const late = uniqueEmail('late');
    await invite(late);
    const lateLink = invitationLinkFor(t.logs, late)!;
    t.clock.advance(7 * 24 * 3600 + 1);
    expect((await deadLinkVisitor().get(lateLink)).status).toBe(404);
    adminBrowser = operatorBrowser(t.app, t.ctx);
    await adminBrowser.signIn(admin);
    // Resending makes a new link, valid from now; the old one stays dead.
    const page = await adminBrowser.get('/console/operators');
    const id = new RegExp(`data-invitation="${late}">[\\s\\S]*?/console/operators/invitations/(\\d+)/resend`).exec(page.body)![1];
    expect((await adminBrowser.post(`/console/operators/invitations/${id}/resend`)).location).toBe('/console/operators?done=resent');
    const fresh = invitationLinkFor(t.logs, late)!;
    expect(fresh).not.toBe(lateLink);
    expect((await operatorBrowser(t.app, t.ctx).get(fresh)).status).toBe(200);
    expect((await deadLinkVisitor().get(lateLink)).status).toBe(404);

    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post(`/console/operators/invitations/${id}/revoke`)).location).toBe('/console/operators?done=revoked');
    expect((await deadLinkVisitor().get(fresh)).status).toBe(404);
  });

  it('refuses invitation links from an address after ten wrong ones, the right link too, until the lock passes; other addresses are not held up', async () => {
    const email = uniqueEmail('guessed');
    await invite(email);
    const link = invitationLinkFor(t.logs, email)!;
    const guesser = operatorBrowser(t.app, t.ctx, { remoteAddress: '203.0.113.40' });
    await guesser.get('/console/login');
    for (let i = 0; i < 5; i += 1) {
      expect((await guesser.get(`/console/invitation/${'x'.repeat(42)}${i}`)).status).toBe(404);
      if (i < 4) expect((await guesser.post(`/console/invitation/${'y'.repeat(42)}${i}`, { password: 'guessing away 1', password_again: 'guessing away 1' })).status).toBe(404);
    }
    const tenth = await guesser.post(`/console/invitation/${'w'.repeat(43)}`, { password: 'guessing away 1', password_again: 'guessing away 1' });
    expect(tenth.status).toBe(429);
    expect(tenth.headers['retry-after']).toBe('30');
    expect(pageText(tenth.body)).toContain('This invitation link cannot be used Too many failed attempts. Try again in 30 seconds.');

    const refused = await guesser.get(link);
    expect(refused.status).toBe(429);
    expect(pageText(refused.body)).not.toContain(email);
    expect((await guesser.post(link, { password: 'newcomer password 1', password_again: 'newcomer password 1' })).status).toBe(429);
    expect(await t.db.query('SELECT accepted_at FROM operator_invitations WHERE email = $1', [email])).toEqual([{ accepted_at: null }]);
    expect((await operatorBrowser(t.app, t.ctx, { remoteAddress: '203.0.113.41' }).get(link)).status).toBe(200);

    t.clock.advance(31);
    const { done } = await enrolFromLink(guesser, link, 'newcomer password 1');
    expect(done.status).toBe(200);
  });

  it('lets no role but admin manage operators, even by a crafted post', async () => {
    for (const role of ['support', 'finance'] as const) {
      const operator = await newOperator(t.ctx, role);
      const browser = operatorBrowser(t.app, t.ctx);
      await browser.signIn(operator);
      expect((await browser.get('/console/operators')).status).toBe(403);
      await browser.get('/console');
      const email = uniqueEmail(`by-${role}`);
      const crafted = await browser.post('/console/operators/invite', { email, role: 'admin' });
      expect(crafted.status).toBe(403);
      expect(invitationLinkFor(t.logs, email)).toBeUndefined();
      expect((await browser.post(`/console/operators/${operator.id}/role`, { role: 'admin' })).status).toBe(403);
      expect(pageText((await browser.get('/console')).body)).not.toContain('Operators');
    }
  });

  it('changes a role and removes an operator: their sessions end at once, and both are audited', async () => {
    const operator = await newOperator(t.ctx, 'support');
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.signIn(operator);
    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post(`/console/operators/${operator.id}/role`, { role: 'finance' })).location).toBe('/console/operators?done=role');
    expect((await browser.get('/console')).location).toBe('/console/login');
    await browser.signIn(operator, browser.codeNow(operator.secret));
    t.clock.advance(30);
    const again = operatorBrowser(t.app, t.ctx);
    await again.signIn(operator);
    expect(pageText((await again.get('/console')).body)).toContain('finance');

    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post(`/console/operators/${operator.id}/remove`, { reason: 'left the company' })).location).toBe('/console/operators?done=removed');
    expect((await again.get('/console')).location).toBe('/console/login');
    expect((await again.password(operator.email, operator.password)).status).toBe(401);
    const entries = await listAudit(t.db, { operatorId: admin.id, objectType: 'operator', objectId: String(operator.id), limit: 10 });
    expect(entries.map((e) => e.action)).toEqual(['operator.remove', 'operator.change_role']);
    expect(entries[0]).toMatchObject({ reason: 'left the company', before: { email: operator.email, role: 'finance' } });
  });

  it('changes your own password (other sessions end) and makes new recovery codes (the old ones stop working)', async () => {
    const operator = await newOperator(t.ctx, 'support');
    const mine = operatorBrowser(t.app, t.ctx);
    await mine.signIn(operator);
    t.clock.advance(30);
    const elsewhere = operatorBrowser(t.app, t.ctx);
    await elsewhere.signIn(operator);
    await mine.get('/console/account');
    expect((await mine.post('/console/account/password', { current_password: 'wrong', new_password: 'a new password 2' })).status).toBe(400);
    expect((await mine.post('/console/account/password', { current_password: operator.password, new_password: 'a new password 2' })).location).toBe('/console/account?done=password');
    expect((await mine.get('/console/account')).status).toBe(200);
    expect((await elsewhere.get('/console')).location).toBe('/console/login');

    const page = await mine.post('/console/account/recovery-codes', { current_password: 'a new password 2' });
    const codes = [...page.body.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    const old = operatorBrowser(t.app, t.ctx);
    await old.password(operator.email, 'a new password 2');
    expect((await old.post('/console/login/code', { code: operator.recoveryCodes[0] })).status).toBe(401);
    expect((await old.post('/console/login/code', { code: codes[0] })).status).toBe(303);
  });

  /** A browser signed in as `operator` (a fresh TOTP step each time). */
  const signedIn = async (operator: TestOperator) => {
    t.clock.advance(30);
    const browser = operatorBrowser(t.app, t.ctx);
    expect((await browser.signIn(operator)).status).toBe(303);
    await browser.get('/console/operators');
    return browser;
  };
  const openInvitations = async () => (await t.db.query<{ email: string }>('SELECT email FROM operator_invitations WHERE accepted_at IS NULL AND revoked_at IS NULL ORDER BY id')).map((r) => r.email);
  const mailsTo = (email: string) => t.logs.filter((line) => line.includes('"mail"') && (JSON.parse(line) as { mail?: { to: string } }).mail?.to === email).length;
  const idOf = async (email: string) => (await t.db.query<{ id: number }>('SELECT id FROM operator_invitations WHERE email = $1', [email]))[0].id;

  it('removing an admin revokes the invitations they sent, each audited with why; demoting one does too; promoting revokes nothing', async () => {
    const leaving = await newOperator(t.ctx, 'admin');
    const demoted = await newOperator(t.ctx, 'admin');
    const [byLeaving, byDemoted, byAdmin] = [uniqueEmail('by-leaving'), uniqueEmail('by-demoted'), uniqueEmail('by-admin')];
    const leavingBrowser = await signedIn(leaving);
    expect((await leavingBrowser.post('/console/operators/invite', { email: byLeaving, role: 'admin' })).location).toBe('/console/operators?done=invited');
    const demotedBrowser = await signedIn(demoted);
    expect((await demotedBrowser.post('/console/operators/invite', { email: byDemoted, role: 'support' })).location).toBe('/console/operators?done=invited');
    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post('/console/operators/invite', { email: byAdmin, role: 'finance' })).location).toBe('/console/operators?done=invited');
    const links = [byLeaving, byDemoted, byAdmin].map((email) => invitationLinkFor(t.logs, email)!);

    expect((await adminBrowser.post(`/console/operators/${leaving.id}/remove`, { reason: 'left' })).location).toBe('/console/operators?done=removed');
    expect(await openInvitations()).not.toContain(byLeaving);
    expect((await deadLinkVisitor().get(links[0])).status).toBe(404);
    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post(`/console/operators/${demoted.id}/role`, { role: 'support' })).location).toBe('/console/operators?done=role');
    expect(await openInvitations()).not.toContain(byDemoted);
    expect((await deadLinkVisitor().get(links[1])).status).toBe(404);
    expect(await openInvitations()).toContain(byAdmin);
    expect((await operatorBrowser(t.app, t.ctx).get(links[2])).status).toBe(200);
    expect(pageText((await adminBrowser.get('/console/operators')).body)).not.toContain(byLeaving);

    const revoked = await listAudit(t.db, { operatorId: admin.id, action: 'operator.invite_revoke', limit: 2 });
    expect(revoked.map((e) => ({ reason: e.reason, before: e.before }))).toEqual([
      { reason: `sent by ${demoted.email}, who is support now and may not invite`, before: { email: byDemoted, role: 'support' } },
      { reason: `sent by ${leaving.email}, who was removed`, before: { email: byLeaving, role: 'admin' } },
    ]);
    // Made admin again, the invitation stays revoked; nothing else is revoked.
    await adminBrowser.get('/console/operators');
    expect((await adminBrowser.post(`/console/operators/${demoted.id}/role`, { role: 'admin' })).location).toBe('/console/operators?done=role');
    expect(await openInvitations()).toContain(byAdmin);
    expect(await openInvitations()).not.toContain(byDemoted);
  });

  it('an admin sends 20 invitation e-mails a day, and 3 to one address; the next one is refused on the page (429), nothing sent, nothing audited; the next day again', async () => {
    const sender = await newOperator(t.ctx, 'admin');
    const browser = await signedIn(sender);
    const wanted = uniqueEmail('wanted');
    expect((await browser.post('/console/operators/invite', { email: wanted, role: 'support' })).status).toBe(303);
    const id = await idOf(wanted);
    for (let i = 0; i < 2; i += 1) expect((await browser.post(`/console/operators/invitations/${id}/resend`)).status).toBe(303);
    const link = invitationLinkFor(t.logs, wanted)!;
    const audited = (await listAudit(t.db, { operatorId: sender.id, limit: 100 })).length;
    const fourth = await browser.post(`/console/operators/invitations/${id}/resend`);
    expect(fourth.status).toBe(429);
    const tomorrow = dayStart(addDays(localDay(t.clock.now(), t.ctx.config.timeZone), 1), t.ctx.config.timeZone);
    expect(Number(fourth.headers['retry-after'])).toBe(Math.ceil((tomorrow.getTime() - t.clock.now().getTime()) / 1000));
    expect(fourth.body).toContain('<h1>Operators</h1>');
    expect(pageText(fourth.body)).toContain(`${wanted} was sent 3 invitation e-mails today, the most one address gets in a day. Nothing was sent. Try again tomorrow (after midnight, Asia/Kathmandu).`);
    expect(mailsTo(wanted)).toBe(3);
    expect(invitationLinkFor(t.logs, wanted)).toBe(link);
    expect((await operatorBrowser(t.app, t.ctx).get(link)).status).toBe(200);

    for (let i = 0; i < 17; i += 1) expect((await browser.post('/console/operators/invite', { email: uniqueEmail(`many-${i}`), role: 'support' })).status, `invitation ${i + 4}`).toBe(303);
    const oneTooMany = uniqueEmail('one-too-many');
    const refused = await browser.post('/console/operators/invite', { email: oneTooMany, role: 'support' });
    expect(refused.status).toBe(429);
    expect(pageText(refused.body)).toContain('You have sent your 20 invitation e-mails for today (invitations and resends alike). Nothing was sent.');
    // The form keeps what was typed.
    expect(refused.body).toContain(`value="${oneTooMany}"`);
    expect(mailsTo(oneTooMany)).toBe(0);
    expect(await t.db.query('SELECT 1 FROM operator_invitations WHERE email = $1', [oneTooMany])).toEqual([]);
    expect((await listAudit(t.db, { operatorId: sender.id, limit: 100 })).length).toBe(audited + 17);
    // Another admin's day is their own.
    expect((await (await signedIn(admin)).post('/console/operators/invite', { email: uniqueEmail('by-another'), role: 'support' })).status).toBe(303);

    t.clock.advance(Math.ceil((tomorrow.getTime() - t.clock.now().getTime()) / 1000));
    const nextDay = await signedIn(sender);
    expect((await nextDay.post('/console/operators/invite', { email: oneTooMany, role: 'support' })).status).toBe(303);
    expect((await nextDay.post(`/console/operators/invitations/${id}/resend`)).status).toBe(303);
    expect(mailsTo(wanted)).toBe(4);
  });
});

describe('the last admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ownDb: true });
  });
  afterAll(() => t.close());

  it('can be neither removed nor demoted, by anyone; with a second admin, either can go', async () => {
    const only = await newOperator(t.ctx, 'admin');
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.signIn(only);
    await browser.get('/console/operators');
    const demote = await browser.post(`/console/operators/${only.id}/role`, { role: 'support' });
    expect(demote.status).toBe(409);
    expect(pageText(demote.body)).toContain('is the last admin');
    expect((await browser.post(`/console/operators/${only.id}/remove`)).status).toBe(409);
    expect((await browser.get('/console/operators')).status).toBe(200);

    const second = await newOperator(t.ctx, 'admin');
    await browser.get('/console/operators');
    expect((await browser.post(`/console/operators/${second.id}/role`, { role: 'support' })).status).toBe(303);
    await browser.get('/console/operators');
    expect((await browser.post(`/console/operators/${second.id}/role`, { role: 'admin' })).status).toBe(303);
    await browser.get('/console/operators');
    expect((await browser.post(`/console/operators/${only.id}/remove`)).status).toBe(303);
    expect((await browser.get('/console')).location).toBe('/console/login');
  });
});
