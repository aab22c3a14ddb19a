// eSewa's door under load: the form POST to its 302 (a signed form, a new
// transaction_uuid each time, form-encoded as a browser posts it), against the INSERT reference as
// initiate is; the status check over a thousand eSewa payments, against the SELECT reference as
// lookup is. The forms are signed with the door's own signature code, as an eSewa client would.
import { signFields } from '../src/protocols/esewa-epay/signature.js';
import { inParallel, type Client } from './http.js';
import { measureLoad, type LoadResult } from './load.js';
import { cpuWindow, type CpuSplit } from './processes.js';
import type { Service } from './service.js';
import { pg, settings } from './settings.js';

export interface EsewaPair {
  product_code: string;
  secret_key: string;
}

export interface EsewaRun extends LoadResult {
  cpu: CpuSplit;
}

const NAMES = ['total_amount', 'transaction_uuid', 'product_code'];

/** A signed form of Rs. 10 + a varying tax, as a merchant's page writes it. */
export function esewaFormBody(pair: EsewaPair, uuid: string, n: number): string {
  const fields: Record<string, string> = {
    amount: '10',
    tax_amount: String(n % 500),
    total_amount: String(10 + (n % 500)),
    transaction_uuid: uuid,
    product_code: pair.product_code,
    product_service_charge: '0',
    product_delivery_charge: '0',
    success_url: 'https://shop.example.com/esewa/success',
    failure_url: 'https://shop.example.com/esewa/failure',
    signed_field_names: NAMES.join(','),
  };
  return new URLSearchParams({ ...fields, signature: signFields(pair.secret_key, fields, NAMES) }).toString();
}

const FORM = { method: 'POST' as const, path: '/api/epay/main/v2/form', headers: { 'content-type': 'application/x-www-form-urlencoded' } };

async function withCpu(service: Service, spec: Parameters<typeof measureLoad>[0]): Promise<EsewaRun> {
  let window: ReturnType<typeof cpuWindow> | undefined;
  let cpu: CpuSplit | undefined;
  const result = await measureLoad(spec, { start: () => (window = cpuWindow({ service: service.proc.pid }, pg.serviceDb)), stop: () => (cpu = window!.stop()) });
  return { ...result, cpu: cpu! };
}

/**
 * Forms signed before a run, as a merchant's page signs the form it serves before the payer posts it:
 * signed in the load generator during the run, each form's HMAC was computed twice in the measured
 * window (by the harness, then by the service) on the same two cores, where initiate's body costs
 * the harness a JSON.stringify. More than a run at the reference's pace posts.
 */
const SIGNED_AHEAD = settings.quick ? 20_000 : 60_000;

/** The form POST under load: only 302s to the hosted page count. */
export function esewaFormRun(service: Service, pair: EsewaPair, round: number): Promise<EsewaRun> {
  const first = round * 10_000_000;
  const signed = Array.from({ length: SIGNED_AHEAD }, (_, n) => esewaFormBody(pair, `bench-esewa-${first + n}`, first + n));
  let i = 0;
  const body = () => (i < signed.length ? signed[i++] : esewaFormBody(pair, `bench-esewa-${first + i}`, first + i++));
  return withCpu(service, { port: service.port, ...FORM, body, expectStatus: 302 });
}

/** eSewa payments to check, made through the form; their transaction_uuid and total. */
export async function prepareEsewaPayments(api: Client, pair: EsewaPair, count: number): Promise<{ uuid: string; total: string }[]> {
  return inParallel(Array.from({ length: count }, (_, n) => n), 8, async (n) => {
    const uuid = `bench-esewa-status-${n}`;
    const answer = await api.send('POST', FORM.path, { headers: FORM.headers, body: esewaFormBody(pair, uuid, n) });
    if (answer.status !== 302) throw new Error(`the eSewa form answered ${answer.status}: ${answer.body}`);
    return { uuid, total: String(10 + (n % 500)) };
  });
}

/** The status check under load, rotating over `payments`. */
export function esewaStatusRun(service: Service, pair: EsewaPair, payments: { uuid: string; total: string }[]): Promise<EsewaRun> {
  let i = 0;
  return withCpu(service, {
    port: service.port,
    method: 'GET',
    path: () => {
      const p = payments[i++ % payments.length];
      return `/api/epay/transaction/status/?product_code=${encodeURIComponent(pair.product_code)}&total_amount=${p.total}&transaction_uuid=${p.uuid}`;
    },
  });
}
