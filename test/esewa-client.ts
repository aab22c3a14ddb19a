// A merchant's integration of eSewa's ePay, over app.inject: it signs its forms as eSewa's
// documentation says (HMAC-SHA256 of `name=value,…`, base64), posts them as a browser does, checks a
// payment's status and, for v1, verifies. Reads `data` as a merchant's success page does.
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { multipart } from './multipart.js';

export const ESEWA_FORM = '/api/epay/main/v2/form';
export const ESEWA_STATUS = '/api/epay/transaction/status/';

export interface EsewaPair {
  product_code: string;
  secret_key: string;
}

/** eSewa's own recipe, written here apart from the door's code so a test can catch the door's mistakes. */
export function sign(secretKey: string, fields: Record<string, string>, names = 'total_amount,transaction_uuid,product_code'): string {
  const message = names.split(',').map((name) => `${name}=${fields[name]}`).join(',');
  return createHmac('sha256', secretKey).update(message).digest('base64');
}

/** A signed v2 form: Rs. 100 + 10 tax by default, a new transaction_uuid. */
export function esewaForm(pair: EsewaPair, overrides: Record<string, string> = {}, names = 'total_amount,transaction_uuid,product_code'): Record<string, string> {
  const fields: Record<string, string> = {
    amount: '100',
    tax_amount: '10',
    total_amount: '110',
    transaction_uuid: `t-${randomUUID()}`,
    product_code: pair.product_code,
    product_service_charge: '0',
    product_delivery_charge: '0',
    success_url: 'https://shop.example.com/esewa/success?cart=7',
    failure_url: 'https://shop.example.com/esewa/failure',
    signed_field_names: names,
    ...overrides,
  };
  return { ...fields, signature: overrides.signature ?? sign(pair.secret_key, fields, fields.signed_field_names) };
}

export interface Answered {
  status: number;
  location?: string;
  body: string;
  contentType?: string;
  json(): any;
}

async function sent(app: FastifyInstance, options: InjectOptions): Promise<Answered> {
  const response = await app.inject(options);
  return {
    status: response.statusCode,
    location: response.headers.location as string | undefined,
    body: response.body,
    contentType: response.headers['content-type'] as string | undefined,
    json: () => JSON.parse(response.body),
  };
}

export const postForm = (app: FastifyInstance, path: string, fields: Record<string, string> | [string, string][]) =>
  sent(app, { method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

/** The fields as multipart/form-data, as PHP's curl posts an array. */
export async function postMultipart(app: FastifyInstance, path: string, fields: Record<string, string> | [string, string][], files?: Parameters<typeof multipart>[1]) {
  const { payload, contentType } = await multipart(fields, files);
  return sent(app, { method: 'POST', url: path, headers: { 'content-type': contentType }, payload });
}

export const postJson = (app: FastifyInstance, path: string, body: unknown) => sent(app, { method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

export const postRaw = (app: FastifyInstance, path: string, payload: string, contentType?: string) =>
  sent(app, { method: 'POST', url: path, headers: contentType === undefined ? {} : { 'content-type': contentType }, payload });

export const getPath = (app: FastifyInstance, url: string) => sent(app, { method: 'GET', url });

/** GET /api/epay/transaction/status/ as clients send it. */
export const statusCheck = (app: FastifyInstance, query: Record<string, string>) => getPath(app, `${ESEWA_STATUS}?${new URLSearchParams(query)}`);

/** The pidx a 302 to the hosted page names. */
export const pidxOf = (location: string) => new URL(location).searchParams.get('pidx')!;

/** What a merchant's success page reads from `data`, and whether its signature holds with the key. */
export function readData(location: string, secretKey: string): { fields: Record<string, string>; verified: boolean } {
  const data = new URL(location).searchParams.get('data')!;
  const fields = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  return { fields, verified: sign(secretKey, fields, fields.signed_field_names) === fields.signature };
}

/** A v1 form (no signature). */
export const v1Form = (productCode: string, overrides: Record<string, string> = {}) => ({
  amt: '100',
  txAmt: '10',
  psc: '0',
  pdc: '0',
  tAmt: '110',
  scd: productCode,
  pid: `p-${randomUUID()}`,
  su: 'https://shop.example.com/esewa/su?q=su',
  fu: 'https://shop.example.com/esewa/fu?q=fu',
  ...overrides,
});
