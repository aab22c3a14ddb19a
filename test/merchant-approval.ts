// Merchants in each approval status, reached as in life: signed up ('new'), applied with business
// details, then decided by an operator (here the CLI actor). For the onboarding and console tests.
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import type { AppContext } from '../src/context.js';
import { applyForLive } from '../src/merchants/apply-for-live.js';
import { approveMerchant, rejectMerchant, suspendMerchant } from '../src/merchants/decide-merchant.js';
import { createMerchant } from '../src/merchants/create-merchant.js';
import type { ApprovalStatus } from '../src/merchants/merchant.js';

let counter = 0;

/** A complete, valid application (business details and settlement bank account). */
export const validApplication = (overrides: Record<string, unknown> = {}) => ({
  legal_name: 'Himalayan Tea House Pvt. Ltd.',
  business_type: 'Private limited company',
  pan_number: '601 234 567',
  address: 'Thamel, Kathmandu 44600',
  contact_person: 'Sita Sharma',
  phone: '+977 9841234567',
  website: 'https://tea.example.com',
  bank_name: 'Nepal Bank Ltd.',
  branch: 'New Road',
  account_name: 'Himalayan Tea House Pvt. Ltd.',
  account_number: '0012-3456-7890',
  ...overrides,
});

/** A merchant as the website's sign-up makes it, moved on to `status`. */
export async function merchantIn(ctx: AppContext, status: ApprovalStatus) {
  counter += 1;
  const unique = `${process.pid}-${Date.now()}-${counter}`;
  const created = await createMerchant(ctx, { name: `Shop ${unique}`, email: `onboard-${unique}@example.com`, password: 'correct horse battery' }, { status: 'new' });
  const merchantIdx = created.merchant.idx;
  if (status !== 'new') {
    // Only an owner who followed the e-mailed link may apply on the website (issue 17): so has this one.
    await ctx.db.query('UPDATE merchant_people SET email_verified_at = $2 WHERE id = $1', [created.owner.person_id, ctx.clock.now()]);
    await applyForLive(ctx, { merchantIdx, application: validApplication() });
  }
  if (status === 'rejected') await rejectMerchant(ctx, { actor: CLI_ACTOR, merchantIdx, reason: 'The PAN does not match the legal name.' });
  if (status === 'approved' || status === 'suspended') await approveMerchant(ctx, { actor: CLI_ACTOR, merchantIdx });
  if (status === 'suspended') await suspendMerchant(ctx, { actor: CLI_ACTOR, merchantIdx, reason: 'Chargebacks under review.' });
  return created;
}

/** A merchant signed up on the website (by its e-mail) applies and is approved: its live key then works. */
export async function approveSignedUp(ctx: AppContext, email: string, application: Record<string, unknown> = {}): Promise<void> {
  const [{ idx }] = await ctx.db.query<{ idx: string }>('SELECT idx FROM merchants WHERE lower(email) = lower($1)', [email]);
  await applyForLive(ctx, { merchantIdx: idx, application: validApplication(application) });
  await approveMerchant(ctx, { actor: CLI_ACTOR, merchantIdx: idx });
}
