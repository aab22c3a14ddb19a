// A payment asked for through one of eSewa's forms (v2's signed form or v1's), read and checked:
// what the door turns into an ordinary payment. Pure.
import { amountProblems, amountsOf, urlField, type AmountNames, type EsewaAmounts } from './esewa-fields.js';
import { refusal } from './esewa-errors.js';

export type EsewaDoor = 'esewa-v2' | 'esewa-v1';

export interface EsewaOrder {
  door: EsewaDoor;
  productCode: string;
  /** transaction_uuid (v2) or pid (v1): the merchant's id for the payment, one payment each. */
  orderId: string;
  amounts: EsewaAmounts;
  successUrl: string;
  failureUrl: string;
  /** The origin of successUrl: the shop's site, which the payment keeps as its website_url. */
  site: string;
}

/** What a form calls each part of an order. */
export interface OrderNames {
  amounts: AmountNames;
  productCode: string;
  orderId: string;
  successUrl: string;
  failureUrl: string;
}

/**
 * The order of a form whose fields are all there: amounts that add up, http(s) addresses, an order
 * id `orderIdProblem` accepts; otherwise the refusal listing every problem.
 */
export function orderOf(door: EsewaDoor, fields: Record<string, string>, names: OrderNames, options: { maxPaisa: number; orderIdProblem(id: string): string | undefined }): EsewaOrder {
  const problems: string[] = [];
  const amounts = amountsOf(fields, names.amounts, problems);
  const idProblem = options.orderIdProblem(fields[names.orderId]);
  if (idProblem) problems.push(idProblem);
  const success = urlField(names.successUrl, fields[names.successUrl], problems);
  urlField(names.failureUrl, fields[names.failureUrl], problems);
  if (problems.length > 0) throw refusal(problems.join(' '));
  const wrong = amountProblems(names.amounts, amounts!, options.maxPaisa);
  if (wrong.length > 0) throw refusal(wrong.join(' '));
  // The addresses as posted, to the character: the signature covers them, and the payer returns to them.
  return {
    door,
    productCode: fields[names.productCode],
    orderId: fields[names.orderId],
    amounts: amounts!,
    successUrl: fields[names.successUrl],
    failureUrl: fields[names.failureUrl],
    site: success!.origin,
  };
}
