// The frame of every console page: its own look (dark slate bar, teal accent, "Operator console"
// on every page) so staff never take it for a merchant's dashboard, the navigation of the sections
// the operator's role may open, the operator's e-mail and role, and sign-out.
import { html, type Html } from '../http/html.js';
import { messageSection, pageDocument, type PageMessage } from '../http/page-document.js';
import { pageHead } from '../http/page-head.js';
import type { OperatorRole } from '../people/operator.js';
import { mayUse, type Permission } from '../people/operator-permissions.js';
import { assetUrl } from '../http/assets.route.js';

export type ConsoleSection = 'overview' | 'merchants' | 'payments' | 'payouts' | 'providers' | 'wallets' | 'operators' | 'audit' | 'account';

interface ConsoleOperator {
  email: string;
  role: OperatorRole;
}

const NAV: [ConsoleSection, string, string, Permission][] = [
  ['overview', 'Overview', '/console', 'read'],
  ['merchants', 'Merchants', '/console/merchants', 'read'],
  ['payments', 'Payments', '/console/payments', 'read'],
  ['payouts', 'Payouts', '/console/payouts', 'read'],
  ['providers', 'Providers', '/console/providers', 'read'],
  ['wallets', 'Wallets', '/console/wallets', 'read'],
  ['operators', 'Operators', '/console/operators', 'operators.manage'],
  ['audit', 'Audit log', '/console/audit', 'read'],
];

function head(title: string): Html {
  return pageHead({ title: `${title} · Bhuktani operator console`, stylesheet: assetUrl('console.css') });
}

export function consolePage(options: { title: string; operator: ConsoleOperator; csrf: string; body: Html; active?: ConsoleSection | string; warning?: string }): Html {
  const { operator } = options;
  return pageDocument({
    head: head(options.title),
    bodyClass: 'console',
    content: html`${options.warning ? html`<p class="server-warning" role="alert" data-testid="server-warning"><strong>Insecure server setting.</strong> ${options.warning}</p>` : ''}
<header class="console-bar">
  <div class="wrap bar-row">
    <a class="console-brand" href="/console"><span class="mark" aria-hidden="true">B</span><span>Bhuktani <strong>Operator console</strong></span></a>
    <div class="who">
      <a href="/console/account"${options.active === 'account' ? html` aria-current="page"` : ''}><span class="who-email">${operator.email}</span></a>
      <span class="role role-${operator.role}">${operator.role}</span>
      <form method="post" action="/console/logout" class="sign-out">
        <input type="hidden" name="csrf_token" value="${options.csrf}">
        <button type="submit">Sign out</button>
      </form>
    </div>
  </div>
  <nav class="wrap console-nav" aria-label="Console">${NAV.filter(([, , , permission]) => mayUse(operator.role, permission)).map(
    ([section, label, href]) => html`<a href="${href}"${section === options.active ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>
</header>
<main class="wrap console-main">
${options.body}
</main>
<footer class="wrap console-foot">Operator console · staff only · every action is recorded in the audit log</footer>`,
  });
}

/** Pages before sign-in (sign-in, second factor, invitation, enrolment): a card under the console's bar. */
export function consoleSignedOutPage(options: { title: string; body: Html }): Html {
  return pageDocument({
    head: head(options.title),
    bodyClass: 'console signed-out',
    content: html`<header class="console-bar">
  <div class="wrap bar-row"><span class="console-brand"><span class="mark" aria-hidden="true">B</span><span>Bhuktani <strong>Operator console</strong></span></span><span class="staff-only">Staff only</span></div>
</header>
<main class="console-card">
${options.body}
</main>`,
  });
}

/** An error or a notice: inside the console's frame when signed in, on the signed-out card otherwise. */
export function consoleMessagePage(content: PageMessage & { operator?: ConsoleOperator; csrf?: string; warning?: string }): Html {
  const body = messageSection(content, 'message');
  return content.operator && content.csrf !== undefined
    ? consolePage({ title: content.title, operator: content.operator, csrf: content.csrf, body, warning: content.warning })
    : consoleSignedOutPage({ title: content.title, body });
}

/** A form's hidden CSRF field. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf_token" value="${csrf}">`;

/** A notice above a page's content (after a redirect: `?done=…`). */
export const notice = (text: string | undefined, kind: 'ok' | 'error' = 'ok') => (text ? html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>` : html``);
