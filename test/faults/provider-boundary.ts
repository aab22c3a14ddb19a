// The fault layer between Bhuktani's instances and the providers (the simulators, served by an app
// of their own on the store without faults: the providers' books). Each call of a connector comes
// here instead of the network (src/providers/provider-http.ts: routeProviderCalls); a step's faults
// are armed and meet the calls that come, from whichever instance, within the next few steps. Time is the simulated clock's: a request held `late` reaches the
// provider when the clock passes its moment, which the schedule keeps within the quiet period no
// request outlives (Bhuktani gave up on it at once: its timeout, without waiting for it).
//
// A refund is never duplicated: it is the one call no provider makes idempotent (Khalti's refund API
// has no key), and no HTTP intermediary may repeat a request of a method that is not idempotent on
// its own (RFC 9110, 9.2.2); a second refund there would be the network's, not Bhuktani's.
import type { ManualClock } from '../../src/clock.js';
import { TransportError, type HttpAnswer, type HttpRequest, type Transport } from '../../src/providers/provider-http.js';
import type { Injector } from '../portal-client.js';
import type { Fault, ProviderFault } from './schedule.js';

type ProviderPlan = Extract<Fault, { at: 'provider' }>;

/** What a call is, read from its address and body: the provider, and for status checks the reference asked about. */
export interface CallKind {
  provider: string;
  kind: 'start' | 'status' | 'refund' | 'other';
  reference?: string;
}

const field = (body: string | undefined, name: string): string | undefined => {
  try {
    const value = (JSON.parse(body ?? '') as Record<string, unknown>)[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  } catch {
    return undefined;
  }
};

export function kindOf(request: HttpRequest): CallKind {
  const url = new URL(request.url);
  const provider = /^\/sandbox\/([a-z]+)\//.exec(url.pathname)?.[1] ?? 'unknown';
  const path = url.pathname;
  if (/\/epayment\/initiate\/$|\/thirdPartyDynamicQrDownload$/.test(path)) return { provider, kind: 'start' };
  if (/\/refund\/$/.test(path)) return { provider, kind: 'refund' };
  if (path.endsWith('/epayment/lookup/')) return { provider, kind: 'status', reference: field(request.body, 'pidx') };
  if (path.endsWith('/transaction/status/')) return { provider, kind: 'status', reference: url.searchParams.get('transaction_uuid') ?? undefined };
  if (path.endsWith('/validatetxn')) return { provider, kind: 'status', reference: field(request.body, 'referenceId') };
  if (path.endsWith('/verificationMerchant')) return { provider, kind: 'status', reference: url.searchParams.get('PRN') ?? undefined };
  if (path.endsWith('/thirdPartyDynamicQrGetStatus')) return { provider, kind: 'status', reference: field(request.body, 'prn') };
  // NCHL's NPI, the test environment's payout rail: a posting moves money (its batch id makes it
  // idempotent, so a duplicate may meet it); validation and the reports only ask.
  if (/\/api\/post(cips|nchlips)batch$/.test(path)) return { provider, kind: 'start' };
  if (/\/api\/(validatebankaccount|get\w+)$/.test(path)) return { provider, kind: 'status', reference: field(request.body, 'batchId') };
  return { provider, kind: 'other' };
}

export interface Call extends CallKind {
  at: Date;
  instance: number;
  fault?: ProviderFault;
  /** Whether the provider acted on it (now, or later for a late one). */
  delivered: boolean;
}

interface Held {
  request: HttpRequest;
  due: number;
}

const never = <T>() => new Promise<T>(() => {});

/** A fault waiting for a call: it meets the call after `skip` more, within `steps` steps. */
interface Armed {
  plan: ProviderPlan;
  skip: number;
  steps: number;
}

/** Steps a provider fault stays armed: most steps make no call to a provider, the next few often do; a refund is rarer. */
const ARMED_STEPS = { any: 4, start: 8, status: 8, refund: 20 };

export class ProviderBoundary {
  private armed: Armed[] = [];
  private held: Held[] = [];
  /** The last answer of each address, for a `foreign` fault (another payment's answer). */
  private lastAnswers = new Map<string, { reference?: string; answer: HttpAnswer }>();
  readonly calls: Call[] = [];
  readonly injected = new Map<ProviderFault, number>();

  constructor(
    private readonly providers: Injector,
    private readonly clock: ManualClock,
    private readonly die: (instance: number) => void,
  ) {}

  /** Arms the step's faults; those that met no call within their ARMED_STEPS are dropped. */
  arm(faults: ProviderPlan[]): void {
    this.armed = [...this.armed.map((a) => ({ ...a, steps: a.steps - 1 })).filter((a) => a.steps > 0), ...faults.map((plan) => ({ plan, skip: plan.nth, steps: ARMED_STEPS[plan.call] }))];
  }

  /** Faults off (the drain). */
  disarm(): void {
    this.armed = [];
  }

  /** The fault that meets this call, if one does: the first armed for its kind with nothing left to skip. */
  private meet(kind: CallKind): ProviderPlan | undefined {
    const mine = this.armed.filter((a) => a.plan.call === 'any' || a.plan.call === kind.kind);
    const due = mine.find((a) => a.skip === 0 && !(a.plan.kind === 'duplicate' && kind.kind === 'refund'));
    for (const a of mine) if (a !== due && a.skip > 0) a.skip -= 1;
    if (!due) return undefined;
    this.armed = this.armed.filter((a) => a !== due);
    this.injected.set(due.plan.kind, (this.injected.get(due.plan.kind) ?? 0) + 1);
    return due.plan;
  }

  /** The providers' side answers `request` (as its server would, whatever happened on the way). */
  private async deliver(request: HttpRequest): Promise<HttpAnswer> {
    const url = new URL(request.url);
    const answer = await this.providers.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
    return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
  }

  /** The transport of instance `instance`, its calls meeting the step's faults. */
  transport(instance: number, alive: () => boolean): Transport {
    return async (request) => {
      if (!alive()) return never();
      const kind = kindOf(request);
      // See above: a refund is never delivered twice.
      const fault = this.meet(kind);
      const call: Call = { ...kind, at: this.clock.now(), instance, fault: fault?.kind, delivered: true };
      this.calls.push(call);
      const key = new URL(request.url).pathname;
      const answered = async () => {
        const answer = await this.deliver(request);
        const foreign = this.lastAnswers.get(key);
        this.lastAnswers.set(key, { reference: kind.reference, answer });
        return { answer, foreign: foreign && foreign.reference !== kind.reference ? foreign.answer : undefined };
      };
      const timeout = () => new TransportError('no answer within the timeout (fault simulator)');
      switch (fault?.kind) {
        case undefined:
          return (await answered()).answer;
        case 'late':
          this.held.push({ request, due: this.clock.now().getTime() + fault.lateSeconds * 1000 });
          throw timeout();
        case 'lost':
          await answered();
          throw new TransportError('no answer (ECONNRESET, fault simulator)');
        case 'slow-body':
          await answered();
          throw timeout();
        case 'duplicate': {
          const { answer } = await answered();
          await this.deliver(request);
          return answer;
        }
        case 'throttled':
          call.delivered = false;
          return { status: 429, contentType: 'application/json', text: JSON.stringify({ detail: 'Request was throttled. Expected available in 30 seconds.' }) };
        case 'error':
          call.delivered = fault.processed;
          if (fault.processed) await answered();
          return { status: 502, contentType: 'text/html', text: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
        case 'reset':
          call.delivered = false;
          throw new TransportError('no answer (ECONNRESET, fault simulator)');
        case 'garbage':
          await answered();
          return { status: 200, contentType: 'text/html', text: '<html><body>Service temporarily unavailable</body></html>' };
        case 'foreign': {
          const { answer, foreign } = await answered();
          return foreign ?? { ...answer, text: answer.text.slice(0, Math.floor(answer.text.length / 2)) };
        }
        case 'kill':
          await answered();
          this.die(instance);
          return never();
      }
    };
  }

  /** When the next held request is due, if one is. */
  nextDue(): number | undefined {
    return this.held.length ? Math.min(...this.held.map((h) => h.due)) : undefined;
  }

  /** Delivers the held requests due by now, in their order. */
  async deliverDue(): Promise<void> {
    for (;;) {
      const now = this.clock.now().getTime();
      const next = this.held.filter((h) => h.due <= now).sort((a, b) => a.due - b.due)[0];
      if (!next) return;
      this.held = this.held.filter((h) => h !== next);
      await this.deliver(next.request);
    }
  }

  /** When the last held request is due (the clock's now when none is). */
  lastDue(): number {
    return Math.max(this.clock.now().getTime(), ...this.held.map((h) => h.due));
  }
}
