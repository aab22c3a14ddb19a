// Pages every dashboard route may answer with: not found, form expired, error. Inside the frame when
// the merchant is logged in, on a plain card otherwise.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { insecureOtpWarning } from '../wallets/otp-sender.js';
import { formToken, sendPage, type DashboardDeps } from './dashboard-request.js';
import { dashboardLayout, messageBody, publicLayout, type PageFrame, type Section } from './layout.js';

const SECTION_PATHS: Record<Section, string> = {
  home: '/dashboard',
  transactions: '/dashboard/transactions',
  links: '/dashboard/links',
  settlements: '/dashboard/settlements',
  keys: '/dashboard/keys',
  webhooks: '/dashboard/webhooks',
  business: '/dashboard/business',
  team: '/dashboard/team',
  account: '/dashboard/account',
};

/** The frame of a logged-in page: session, a CSRF token for its forms, where it is. */
export function frameOf(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply, section?: Section): PageFrame {
  return {
    session: request.merchantSession!,
    csrf: formToken(deps, request, reply),
    // Where the environment switch comes back to: this page, or for a form's answer its section.
    path: request.method === 'GET' ? request.url.split('#')[0] : SECTION_PATHS[section ?? 'home'],
    section,
    timeZone: deps.ctx.config.timeZone,
    serverWarning: insecureOtpWarning(deps.ctx.config),
  };
}

export function messagePage(
  deps: DashboardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  content: { title: string; message: string; link?: { href: string; text: string } },
) {
  const body = messageBody(content);
  const page = request.merchantSession ? dashboardLayout({ ...frameOf(deps, request, reply), path: '/dashboard', title: content.title, body }) : publicLayout({ title: content.title, body });
  return sendPage(reply, page, status);
}

export function notFound(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply, what = 'page') {
  return messagePage(deps, request, reply, 404, {
    title: `${what[0].toUpperCase()}${what.slice(1)} not found`,
    message:
      what === 'payment'
        ? `There is no such payment in your ${request.merchantSession?.environment ?? 'test'} data. If it was made with your other key, switch environment.`
        : 'There is nothing at this address.',
    link: { href: '/dashboard', text: 'Back to the dashboard' },
  });
}

export function formExpired(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  return messagePage(deps, request, reply, 403, {
    title: 'Form expired',
    message: 'This form could not be verified. Go back, reload the page and try again.',
    link: { href: request.merchantSession ? '/dashboard' : '/dashboard/login', text: request.merchantSession ? 'Back to the dashboard' : 'Log in' },
  });
}

/** A role that may not do what the route does (merchant-permissions.ts): pages and forms alike. */
export function forbidden(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  const role = request.merchantSession?.user.role ?? 'user';
  return messagePage(deps, request, reply, 403, {
    title: 'Not allowed for your role',
    message: `Your role (${role}) may not do this. Ask your team's owner or an admin if you need it.`,
    link: { href: '/dashboard', text: 'Back to the dashboard' },
  });
}
