// The "Go live" page: where the merchant stands with the operators, and the form of its business
// details and settlement bank account, to apply (or, once rejected, correct and apply again); once
// approved, the details read-only and a form of the bank account alone.
import { html, type Html } from '../http/html.js';
import { bankAccountLine, type BankAccount } from '../merchants/bank-account.js';
import { businessTypes, type BusinessDetails } from '../merchants/business-details.js';
import type { ApprovalStatus } from '../merchants/merchant.js';
import { alertBox, csrfField, selectInput, textInput } from './form-controls.js';
import { formatDateTime } from './format.js';
import { dashboardLayout, type PageFrame } from './layout.js';

export interface BusinessView {
  details?: BusinessDetails;
  bankAccount?: BankAccount;
  /** What the form shows after a refused post: the values as typed and each field's message. */
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
  /** The step-up field (step-up.ts) while the session is not freshly confirmed. */
  stepUp?: Html | '';
  /** Not yet verified: the user cannot apply until they follow the e-mailed link. */
  unverified?: boolean;
  /** The bank account form of an approved merchant after a refused post: as typed, and each field's message. */
  bankValues?: Record<string, string>;
  bankErrors?: Record<string, string>;
  done?: string;
}

const STATUS: Record<ApprovalStatus, { badge: string; tone: string; text: string }> = {
  new: { badge: 'Test only', tone: 'warn', text: 'Your test key works now. To take real payments with your live key, tell us about your business and apply.' },
  applied: { badge: 'Applied · waiting for review', tone: '', text: 'Thank you. We are reviewing your business details; your live key will work as soon as they are approved.' },
  approved: { badge: 'Approved', tone: 'ok', text: 'Your business is approved: your live key takes real payments.' },
  rejected: { badge: 'Not approved', tone: 'bad', text: 'We could not approve your business. Correct your details below and apply again.' },
  suspended: { badge: 'Suspended', tone: 'bad', text: 'Your live payments are off. Your test key still works. Contact support to resolve this.' },
};

/** The merchant can fill in the form while signed up or after a rejection. */
export const canApply = (status: ApprovalStatus) => status === 'new' || status === 'rejected';

function statusPanel(status: ApprovalStatus, reason: string | null, details: BusinessDetails | undefined, timeZone: string): Html {
  const s = STATUS[status];
  const showReason = (status === 'rejected' || status === 'suspended') && reason;
  return html`<section class="panel approval-status" aria-labelledby="status-heading" data-status="${status}">
  <h2 id="status-heading">Live account status <span class="badge ${s.tone}">${s.badge}</span></h2>
  <p>${s.text}</p>
  ${showReason ? html`<p class="alert error"><strong>Reason:</strong> ${reason}</p>` : ''}
  ${status === 'applied' && details ? html`<p class="hint">Applied ${formatDateTime(details.updatedAt, timeZone)}.</p>` : ''}
</section>`;
}

function detailsSummary(details: BusinessDetails, bank: BankAccount | undefined): Html {
  const rows: [string, string][] = [
    ['Legal name', details.legalName],
    ['Type of business', details.businessType],
    ['PAN / VAT number', details.panNumber],
    ['Address', details.address],
    ['Contact person', details.contactPerson],
    ['Phone', details.phone],
    ['Website', details.website || '—'],
    ['Settlement account', bank ? bankAccountLine(bank) : '—'],
  ];
  return html`<section class="panel" aria-labelledby="details-heading">
  <h2 id="details-heading">Your business details</h2>
  <dl class="facts">${rows.map(([label, value]) => html`<div class="row"><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>
</section>`;
}

/** The form's values: as typed after a refused post, else the saved details (a rejected merchant corrects them). */
function formValues(view: BusinessView): Record<string, string> {
  if (view.values) return view.values;
  const d = view.details;
  const b = view.bankAccount;
  return {
    legal_name: d?.legalName ?? '',
    business_type: d?.businessType ?? '',
    pan_number: d?.panNumber ?? '',
    address: d?.address ?? '',
    contact_person: d?.contactPerson ?? '',
    phone: d?.phone ?? '',
    website: d?.website ?? '',
    bank_name: b?.bankName ?? '',
    branch: b?.branch ?? '',
    account_name: b?.accountName ?? '',
    account_number: b?.accountNumber ?? '',
    bank_code: b?.bankCode ?? '',
    branch_code: b?.branchCode ?? '',
  };
}

type FieldInput = (name: string, label: string, extra?: { type?: string; hint?: string; autocomplete?: string; required?: boolean }) => Html;

const fieldInput =
  (values: Record<string, string>, errors: Record<string, string>): FieldInput =>
  (name, label, extra = {}) =>
    textInput({ name, label, value: values[name], error: errors[name], required: extra.required ?? true, ...extra });

function bankAccountFields(input: FieldInput): Html {
  return html`<div class="form-grid">
      ${input('bank_name', 'Bank')}
      ${input('branch', 'Branch')}
      ${input('account_name', 'Account name')}
      ${input('account_number', 'Account number', { hint: '6 to 20 digits.', autocomplete: 'off' })}
      ${input('bank_code', 'NCHL bank code', { hint: 'Optional: 4 digits (e.g. 0401), from your bank. Payouts through NCHL need it.', autocomplete: 'off', required: false })}
      ${input('branch_code', 'Branch code', { hint: 'Optional: NCHL’s code of the branch, if your bank gave one.', autocomplete: 'off', required: false })}
    </div>`;
}

function applicationForm(csrf: string, view: BusinessView): Html {
  const v = formValues(view);
  const e = view.errors ?? {};
  const input = fieldInput(v, e);
  return html`<form method="post" action="/dashboard/business" class="panel application" novalidate>
  ${csrfField(csrf)}
  <fieldset>
    <legend>Business</legend>
    <div class="form-grid">
      ${input('legal_name', 'Legal name', { hint: 'As registered with the Office of the Company Registrar or your municipality.', autocomplete: 'organization' })}
      ${selectInput({ name: 'business_type', label: 'Type of business', value: v.business_type, options: [['', 'Choose…'], ...businessTypes.map((t): [string, string] => [t, t])], error: e.business_type })}
      ${input('pan_number', 'PAN / VAT number', { hint: '9 digits, as on your PAN or VAT certificate.', autocomplete: 'off' })}
      ${input('address', 'Registered address', { autocomplete: 'street-address' })}
      ${input('contact_person', 'Contact person', { autocomplete: 'name' })}
      ${input('phone', 'Phone', { type: 'tel', hint: 'Mobile or landline, e.g. 9841234567 or +977 1 4412345.', autocomplete: 'tel' })}
      ${input('website', 'Website', { type: 'url', hint: 'Optional. Where your customers pay, e.g. https://shop.example.com.', autocomplete: 'url', required: false })}
    </div>
  </fieldset>
  <fieldset>
    <legend>Settlement bank account</legend>
    <p class="hint">Where we pay out what your customers pay. The account should be in the business's legal name.</p>
    ${bankAccountFields(input)}
  </fieldset>
  ${view.stepUp ?? ''}
  <div class="actions"><button type="submit" class="primary">Apply to go live</button></div>
</form>`;
}

/** An approved merchant adds or changes where payouts go; the number is typed whole each time, never shown back. */
function bankAccountForm(csrf: string, view: BusinessView): Html {
  const b = view.bankAccount;
  const values = view.bankValues ?? { bank_name: b?.bankName ?? '', branch: b?.branch ?? '', account_name: b?.accountName ?? '', account_number: '', bank_code: b?.bankCode ?? '', branch_code: b?.branchCode ?? '' };
  return html`<form method="post" action="/dashboard/business/bank-account" class="panel" id="bank-account" aria-labelledby="bank-account-heading" novalidate>
  ${csrfField(csrf)}
  <h2 id="bank-account-heading">Settlement bank account</h2>
  <p data-testid="current-bank-account">${b ? html`Payouts go to ${bankAccountLine(b)}.` : 'No bank account yet: add one to receive live payouts.'}</p>
  <p class="hint">Live payouts requested from now on go to the account you save here; payouts already on their way keep theirs. Your account's owner is told by e-mail. The account should be in the business's legal name.</p>
  ${bankAccountFields(fieldInput(values, view.bankErrors ?? {}))}
  ${view.stepUp ?? ''}
  <div class="actions"><button type="submit" class="primary">${b ? 'Change bank account' : 'Add bank account'}</button></div>
</form>`;
}

export function businessPage(frame: PageFrame, view: BusinessView): Html {
  const { status, status_reason } = frame.session.merchant;
  const title = status === 'new' ? 'Go live' : 'Business';
  return dashboardLayout({
    ...frame,
    title,
    body: html`<h1 class="page-title">${title}</h1>
${alertBox(view.message)}${alertBox(view.done, 'success')}
${view.unverified && (canApply(status) || status === 'approved') ? html`<p class="alert warning" data-testid="verify-first">Confirm your e-mail address before you ${status === 'approved' ? 'change the bank account' : 'apply'}: follow the link we sent you.</p>` : ''}
${statusPanel(status, status_reason, view.details, frame.timeZone)}
${canApply(status) ? applicationForm(frame.csrf, view) : view.details ? detailsSummary(view.details, view.bankAccount) : ''}
${status === 'approved' ? bankAccountForm(frame.csrf, view) : ''}`,
  });
}
