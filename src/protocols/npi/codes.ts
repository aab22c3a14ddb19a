// NCHL NPI's response codes as NPI Specification §6 "Handling of Response Codes" publishes them
// (npidoc.connectips.com/docs/NPI/NPI_Specification/handling_of_response_codes), with the account
// validation codes of §5.3 and the report cases of §5.5: the words both the connector and the
// simulator read and write. Only what NCHL publishes is here.

/** Technical errors: HTTP status and description, answered as `{responseCode, responseDescription, fieldErrors}`. */
export const technicalErrors = {
  E001: { status: 403, description: 'INVALID IP ADDRESS' },
  E003: { status: 400, description: 'INVALID TOKEN' },
  E004: { status: 400, description: 'INVALID ACCOUNT' },
  E007: { status: 400, description: 'TECHNICAL VALIDATION FAILED' },
  // `99` in the general specification; the Remittance one writes `099`.
  '99': { status: 400, description: 'DUPLICATE BATCH TRANSACTION' },
  E999: { status: 500, description: 'ERROR' },
  // Answered with HTTP 200: the outcome is unknown, the reports decide.
  E021: { status: 200, description: 'TRANSACTION TIME OUT' },
} as const;
export type TechnicalErrorCode = keyof typeof technicalErrors;

/** A field the technical validation refused, as E007 names it: `nchlIpsBatchDetail.categoryPurpose`. */
export interface FieldError {
  field: string;
  message: string;
}

/** The debit leg's statuses (`debitStatus`), both rails. Any other value is a bank's own (CBS) rejection. */
export const debitStatuses = {
  '000': 'Debit Success',
  '1001': 'Bank network not reachable',
  '999': 'Debit ISO Time Out',
  '1000': 'Debit rejected',
  ENTR: 'Debit in Progress',
} as const;

/** The real-time rail's credit statuses (`creditStatus`). Any other value is the creditor bank's (CBS) rejection, reversed. */
export const cipsCreditStatuses = {
  '000': 'Credit Success',
  '1001': 'Bank network not reachable',
  '1000': 'Credit Rejected as Debit is Rejected',
  '999': 'Credit ISO Time Out',
  DEFER: 'Deferred Credit Payment/Success',
  ENTR: 'Credit in Progress',
} as const;

/**
 * The batch rail's credit statuses in their order: pending in NPI, then NCHL-IPS's, to a final
 * ACSC (credited) or RJCT (rejected). §5.4.2's flow and the Remittance table make ACSC the success
 * (the response table's "ACSP for success" is a slip).
 */
export const ipsPendingCreditStatuses = ['ENTR', 'GEN', 'SENT', 'ACTC', 'ACSP'] as const;
export const ipsFinalCreditStatuses = ['ACSC', 'RJCT'] as const;
export type IpsCreditStatus = (typeof ipsPendingCreditStatuses)[number] | (typeof ipsFinalCreditStatuses)[number];

/** What the batch rail's posting answers for each transaction while it waits for NCHL-IPS. */
export const ipsPendingMessage = 'PENDING FOR POSTING IN NCHL-IPS';

/** Account validation (`/api/validatebankaccount`): 000 a full match; 999 a partial one (proceed only above 80); any other, stop. */
export const accountValidation = {
  matched: { responseCode: '000', responseMessage: 'Account successfully validated.' },
  partial: { responseCode: '999', proceedAbove: 80 },
  mismatch: { responseCode: '523', responseMessage: 'Beneficiary account name mismatch' },
} as const;

/** Reasons the report cases publish (§5.5, Cases II and VII). */
export const publishedReasons = {
  /** A real-time credit the creditor's bank refused (Case II): the debit reversed, `reversalStatus` 000. */
  cipsCreditRejected: { code: '114', description: 'Invalid account number' },
  /** A batch credit NCHL-IPS rejected (Case VII). */
  ipsCreditRejected: { code: '502', description: 'Account Not Found' },
} as const;

/** The debit's description in the reports: "SUCCESS" for 000 (§5.5). */
export const debitReasonDescriptions: Record<string, string> = {
  '000': 'SUCCESS',
  '999': 'TIMEOUT, PLEASE CONFIRM WITH BANK BEFORE RE-POSTING',
};

/** connectIPS's current per-transaction limits, in paisa: NPR 2 million between banks, 200 million within one. */
export const cipsLimits = { offUs: 200_000_000, onUs: 20_000_000_000 } as const;

/** NCHL-IPS takes up to this many transactions in one batch. */
export const ipsMaxTransactions = 10_000;
