// The console's Providers page: admins set providers up and enable or disable
// them; support and admins decide attempts the providers could not; finance and admins mark refunds
// made at providers by hand. Every act is audited by its use case.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { environments, type Environment } from '../environment.js';
import { AppError } from '../http/errors.js';
import { descriptorOf, isProviderName, type ProviderName } from '../providers/registry.js';
import { listEscalatedAttempts, providerFigures } from '../provider-payments/provider-figures.js';
import { listOperatorRefunds } from '../provider-payments/provider-refund-store.js';
import { markRefundedByOperator } from '../provider-payments/provider-refunds.js';
import { enableProvider, listProviders, setProvider } from '../providers/provider-setup.js';
import { resolveAttempt, type AttemptDecision } from '../provider-payments/resolve-attempt.js';
import { lastReconciliations } from '../provider-payments/settlement-report.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { mayUse } from '../people/operator-permissions.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { providersBody } from './providers-pages.js';

const LIMIT = 100;
const DONE: Record<string, string> = {
  set: 'The provider is set up; its credentials are sealed.',
  enabled: 'The provider is enabled: offered on the hosted page.',
  disabled: 'The provider is disabled: no longer offered on the hosted page.',
  decided: 'The attempt is decided.',
  refunded: 'The refund is marked; the money owed back is settled with the provider.',
};

const decisions: AttemptDecision[] = ['paid', 'not_paid', 'ask_again'];

/** An AppError's words for the page: its fields by their labels, or its message. */
function explain(error: AppError, name?: ProviderName): string {
  if (!error.fields) return error.message;
  const labelOf = (field: string) => (name && descriptorOf(name).setup.find((f) => f.name === field)?.label) ?? field.replace(/_/g, ' ');
  return Object.entries(error.fields).map(([f, p]) => `${labelOf(f)}: ${[p].flat().join(' ')}`).join('; ');
}

export function registerConsoleProviders(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;

  async function page(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const csrf = formToken(deps, request, reply);
    const body = providersBody({
      listings: await listProviders(ctx),
      figures: await providerFigures(ctx.db),
      escalated: await listEscalatedAttempts(ctx.db, LIMIT),
      refunds: await listOperatorRefunds(ctx.db, LIMIT),
      reconciliations: await lastReconciliations(ctx.db),
      mayManage: mayUse(operator.role, 'providers.manage'),
      mayResolve: mayUse(operator.role, 'payments.resolve'),
      mayMarkRefunds: mayUse(operator.role, 'providers.refunds'),
      csrf,
      timeZone: ctx.config.timeZone,
      now: ctx.clock.now(),
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(ctx.config), title: 'Providers', operator, csrf, body, active: 'providers' }), status);
  }

  /** Runs an act; a refusal is shown on the page (400 for the form, 409 for a state that no longer allows it). */
  const act = (done: string, work: (request: FastifyRequest) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    try {
      await work(request);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.code === 'not_found') return notFound(deps, request, reply, 'provider');
      return page(request, reply, error.code === 'conflict' ? 409 : 400, explain(error, providerOf(request)));
    }
    return reply.code(303).redirect(`/console/providers?done=${done}`);
  };

  const providerOf = (request: FastifyRequest): ProviderName | undefined => {
    const { name } = request.params as { name?: string };
    return isProviderName(name) ? name : undefined;
  };

  const target = (request: FastifyRequest) => {
    const { name, environment } = request.params as { name: string; environment?: string };
    if (!isProviderName(name)) throw new AppError('not_found');
    const env = environment ?? field(request, 'environment');
    if (!environments.includes(env as Environment)) throw new AppError('bad_request', { detail: 'Choose test or live.' });
    return { name, environment: env as Environment };
  };

  app.get('/providers', { config: { permission: 'read' } }, (request, reply) => page(request, reply));

  app.post(
    '/providers/:name/set',
    { config: { permission: 'providers.manage' } },
    act('set', async (request) => {
      const { name, environment } = target(request);
      const values = Object.fromEntries(descriptorOf(name).setup.map((f) => [f.name, field(request, f.name)]));
      await setProvider(ctx, { actor: actorOf(request), name, environment, values });
    }),
  );

  for (const enabled of [true, false]) {
    app.post(
      `/providers/:name/:environment/${enabled ? 'enable' : 'disable'}`,
      { config: { permission: 'providers.manage' } },
      act(enabled ? 'enabled' : 'disabled', (request) => enableProvider(ctx, { actor: actorOf(request), ...target(request), enabled })),
    );
  }

  app.post(
    '/providers/attempts/:idx/resolve',
    { config: { permission: 'payments.resolve' } },
    act('decided', async (request) => {
      const decision = field(request, 'decision') as AttemptDecision;
      if (!decisions.includes(decision)) throw new AppError('bad_request', { detail: 'Choose paid, not paid or ask again.' });
      await resolveAttempt(ctx, { actor: actorOf(request), attempt: (request.params as { idx: string }).idx.slice(0, 64), decision, reason: field(request, 'reason') });
    }),
  );

  app.post(
    '/providers/refunds/:idx/refunded',
    { config: { permission: 'providers.refunds' } },
    act('refunded', (request) => markRefundedByOperator(ctx, { actor: actorOf(request), idx: (request.params as { idx: string }).idx.slice(0, 64), reference: field(request, 'reference') })),
  );
}
