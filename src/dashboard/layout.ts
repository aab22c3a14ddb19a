// The frame of every dashboard page. Logged in: the environment bar (always on screen, so test data
// is never taken for live data), the navigation and log-out. Before log-in: a plain card.
import { html, type Html } from '../http/html.js';
import { messageSection, pageDocument, type PageMessage } from '../http/page-document.js';
import { pageHead } from '../http/page-head.js';
import type { ApprovalStatus } from '../merchants/merchant.js';
import type { MerchantSession } from '../merchants/merchant-sessions.js';
import { type Action, may } from '../people/merchant-permissions.js';
import { assetUrl } from '../http/assets.route.js';

export type Section = 'home' | 'transactions' | 'links' | 'settlements' | 'keys' | 'webhooks' | 'business' | 'team' | 'account';

export interface PageFrame {
  session: MerchantSession;
  csrf: string;
  /** The path of this page, to come back to after switching environment. */
  path: string;
  section?: Section;
  timeZone: string;
  /** A setting of this server that puts live money at risk, shown on every page (OTP_SENDER=log-insecure). */
  serverWarning?: string;
}

function head(title: string): Html {
  return pageHead({ title: `${title} · Bhuktani`, stylesheet: assetUrl('dashboard.css'), script: assetUrl('dashboard.js') });
}

export function environmentBar(frame: Pick<PageFrame, 'session' | 'csrf' | 'path'>): Html {
  const live = frame.session.environment === 'live';
  const other = live ? 'test' : 'live';
  return html`<aside class="env-bar ${live ? 'live' : 'test'}" aria-label="Environment" data-environment="${frame.session.environment}">
  <div class="wrap">
    <p class="env-name"><span class="env-dot" aria-hidden="true"></span><strong>${live ? 'LIVE DATA' : 'TEST DATA'}</strong>
    <span class="env-note">${live ? 'Real payments and real money' : 'Sandbox payments · no real money moves'}</span></p>
    <form method="post" action="/dashboard/environment" class="env-switch">
      <input type="hidden" name="csrf_token" value="${frame.csrf}">
      <input type="hidden" name="environment" value="${other}">
      <input type="hidden" name="back" value="${frame.path}">
      <button type="submit">Switch to ${other} data</button>
    </form>
  </div>
</aside>`;
}

/**
 * A person who belongs to several businesses chooses which one the session looks at; their role
 * there shows beside each. One business: its name only.
 */
export function businessSwitcher(session: MerchantSession, csrf: string): Html {
  if (session.memberships.length < 2) return html`<span class="merchant-name" title="${session.user.email} · ${session.user.role}">${session.merchant.name}</span>`;
  return html`<form method="post" action="/dashboard/switch-business" class="business-switch">
  <input type="hidden" name="csrf_token" value="${csrf}">
  <label for="business-switch" class="visually-hidden">Business</label>
  <select id="business-switch" name="business">${session.memberships.map(
    (m) => html`<option value="${m.merchantIdx}"${m.merchantId === session.merchant.id ? html` selected` : ''}>${m.merchantName} · ${m.role}</option>`,
  )}</select>
  <button type="submit" class="button small">Switch</button>
</form>`;
}

/** Each section, and the action its page needs: a role sees only what it may open. */
const NAV: [Section, string, string, Action][] = [
  ['home', 'Home', '/dashboard', 'view'],
  ['transactions', 'Transactions', '/dashboard/transactions', 'view'],
  ['links', 'Payment links', '/dashboard/links', 'view'],
  ['settlements', 'Settlements', '/dashboard/settlements', 'view'],
  ['keys', 'API keys', '/dashboard/keys', 'keys.view'],
  ['webhooks', 'Webhooks', '/dashboard/webhooks', 'keys.view'],
  ['business', 'Go live', '/dashboard/business', 'business.manage'],
  ['team', 'Team', '/dashboard/team', 'view'],
];

/** Whether the logged-in user's role may do `action`: for hiding what the server would refuse anyway. */
export const userMay = (session: MerchantSession, action: Action) => may(session.user.role, action);

const LIVE_OFF: Record<Exclude<ApprovalStatus, 'approved'>, string> = {
  new: 'Live payments are off until your business is approved.',
  applied: 'Live payments are off until your business is approved: we are reviewing your application.',
  rejected: 'Live payments are off: your business was not approved. See why, correct and apply again.',
  suspended: 'Your merchant account is suspended: live payments are off.',
};

/** On live data, a merchant that may not take live payments is told so on every page, and where to act. */
function liveOffBanner(session: MerchantSession): Html | '' {
  const status = session.merchant.status;
  if (session.environment !== 'live' || status === 'approved') return '';
  const link = userMay(session, 'business.manage') ? html` <a href="/dashboard/business">${status === 'new' ? 'Go live' : 'See your status'}</a>` : '';
  return html`<div class="live-off" role="status" data-status="${status}"><div class="wrap">
  <p><strong>${LIVE_OFF[status]}</strong>${link}</p>
</div></div>`;
}

/** Until the user follows the link of the verification e-mail: a notice on every page, and a way to have it sent again. */
function unverifiedNotice(frame: Pick<PageFrame, 'session' | 'csrf'>): Html | '' {
  if (frame.session.user.email_verified_at) return '';
  return html`<section class="verify-email" aria-label="Account notice" data-testid="verify-email"><div class="wrap">
  <p><strong>Confirm your e-mail address.</strong> We sent a link to ${frame.session.user.email}. Test payments work now; to go live, follow the link first.</p>
  <form method="post" action="/dashboard/account/verify-email" class="inline">
    <input type="hidden" name="csrf_token" value="${frame.csrf}">
    <button type="submit" class="link">Send the link again</button>
  </form>
</div></section>`;
}

export function dashboardLayout(frame: PageFrame & { title: string; body: Html }): Html {
  const { session } = frame;
  return pageDocument({
    head: head(frame.title),
    bodyClass: `dash env-${session.environment}`,
    content: html`${environmentBar(frame)}
${frame.serverWarning ? html`<p class="server-warning" role="alert" data-testid="server-warning"><strong>Insecure server setting.</strong> ${frame.serverWarning}</p>` : ''}
${liveOffBanner(session)}
${unverifiedNotice(frame)}
<header class="top">
  <div class="wrap">
    <a class="brand" href="/dashboard"><span class="logo" aria-hidden="true">B</span> Bhuktani</a>
    <nav aria-label="Dashboard">${NAV.filter(([, , , action]) => userMay(session, action)).map(
      ([section, label, href]) =>
        html`<a href="${href}"${section === frame.section ? html` aria-current="page"` : ''}>${section === 'business' && session.merchant.status !== 'new' ? 'Business' : label}</a>`,
    )}</nav>
    <div class="account">
      ${businessSwitcher(session, frame.csrf)}
      <a href="/dashboard/account"${frame.section === 'account' ? html` aria-current="page"` : ''}>Security</a>
      <form method="post" action="/dashboard/logout" class="logout">
        <input type="hidden" name="csrf_token" value="${frame.csrf}">
        <button type="submit" class="link">Log out</button>
      </form>
    </div>
  </div>
</header>
<main class="wrap">
${frame.body}
</main>
<footer class="wrap foot">Times in ${frame.timeZone} · Bhuktani merchant dashboard</footer>`,
  });
}

/** Sign-up, log-in and other pages shown without a session. */
export function publicLayout(options: { title: string; body: Html }): Html {
  return pageDocument({
    head: head(options.title),
    bodyClass: 'public',
    content: html`<header class="public-brand"><a class="brand" href="/dashboard/login"><span class="logo" aria-hidden="true">B</span> Bhuktani</a><span class="tag">Merchant dashboard</span></header>
<main class="public-card">
${options.body}
</main>`,
  });
}

/** A page that only says something: not found, form expired. */
export const messageBody = (content: PageMessage): Html => messageSection(content, 'message-page');
