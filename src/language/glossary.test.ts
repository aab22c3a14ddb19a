// One term per idea in the payer's Nepali. For each idea: the term, the messages that must say it,
// and the words it replaced, which no message may say again. A new message that needs an idea of the
// table takes its term; a new idea gets a row (docs/languages.md: "One term per idea").
import { describe, expect, it } from 'vitest';
import { messages } from '../../test/catalogue-messages.js';
import { en } from './en.js';
import { ne } from './ne.js';

interface Entry {
  idea: string;
  term: string;
  saidIn: string[];
  rejected: RegExp[];
}

const GLOSSARY: Entry[] = [
  { idea: 'payment', term: 'भुक्तानी', saidIn: ['checkout.title', 'layout.testNote', 'receipt.Completed.title'], rejected: [/भुगतान/] },
  {
    idea: 'enter (what the payer types)',
    term: 'हाल्नुहोस्',
    saidIn: ['payerErrors.invalid_input', 'link.problems.amount_invalid', 'link.problems.phone_invalid', 'link.problems.email_invalid'],
    rejected: [/लेख्नुहोस्/],
  },
  {
    idea: 'held, not yet decided (Pending)',
    term: 'प्रक्रियामा',
    saidIn: ['notices.finished.pending', 'receipt.Pending.title', 'demo.outcomes.Pending.title', 'demo.statuses.Pending', 'checkout.sandboxHint'],
    rejected: [/जाँच ?हुँदै/, /जाँचका लागि/],
  },
  { idea: 'what Pending waits for', term: 'पुष्टि हुन बाँकी', saidIn: ['receipt.Pending.message', 'demo.outcomes.Pending.message'], rejected: [] },
  { idea: 'a payment decided (completed or canceled)', term: 'टुङ्गि', saidIn: ['providers.alreadyDecided'], rejected: [/भुक्तानी सकि/, /पहिल्यै टुङ्गिएको/] },
  // The page of a payment the payer is done with says completed, canceled or Pending under one title:
  // its state, not "decided" (a Pending one is not).
  { idea: 'the state of a payment', term: 'अवस्था', saidIn: ['notices.finished.title', 'demo.receipt.status'], rejected: [/भुक्तानी टुङ्गियो/] },
  {
    idea: 'the time to pay ran out',
    term: 'समय सकियो',
    saidIn: ['checkout.expired', 'payerErrors.payment_expired', 'notices.expired.title', 'link.expired.title', 'receipt.Expired.message', 'demo.outcomes.Expired.title'],
    rejected: [/म्याद/],
  },
  {
    idea: 'a way to pay (a provider)',
    term: 'माध्यम',
    saidIn: ['providers.section', 'providers.payWith', 'payerErrors.provider_unavailable', 'payerErrors.provider_not_paid', 'providers.qrDeclined', 'qrWay.otherWay'],
    rejected: [/प्रदायक/, /यसबाट तिर्नुहोस्/, /तरिका/],
  },
  {
    idea: 'not charged',
    term: 'तपाईंको पैसा काटिएको छैन',
    saidIn: ['link.notCharged', 'receipt.User canceled.message', 'demo.outcomes.User canceled.message', 'demo.outcomes.Expired.message'],
    rejected: [/कुनै पैसा काटिएको/],
  },
  { idea: 'real money (beside a test)', term: 'असली पैसा', saidIn: ['layout.testNote', 'demo.sandboxNote'], rejected: [/साँचो पैसा/, /पैसा चल्दैन/] },
  {
    idea: 'test (the sandbox)',
    term: 'परीक्षण',
    saidIn: ['layout.testNote', 'checkout.sandboxWallets', 'checkout.esewaSandboxHint', 'demo.sandboxNote', 'demo.unavailable.instead', 'qrWay.sandboxBankApp'],
    rejected: [/टेस्ट/, /स्यान्डबक्स/],
  },
  { idea: 'a secret key', term: 'सिक्रेट की', saidIn: ['demo.unavailable.why', 'demo.unavailable.instead'], rejected: [/साँचो/, /गोप्य/] },
  {
    idea: 'an id (letters and digits)',
    term: 'आईडी',
    saidIn: ['receipt.transactionId', 'demo.receipt.transactionId', 'demo.receipt.orderId', 'demo.receipt.pidx', 'checkout.esewaSandboxHint'],
    rejected: [/(कारोबार|भुक्तानी|अर्डर) नम्बर/, /\bID\b/, /खाता/],
  },
  { idea: 'the one-time code', term: 'OTP', saidIn: ['checkout.otpSent', 'payerErrors.wrong_otp'], rejected: [/(?<!QR )कोड/] },
  { idea: 'already', term: 'पहिले नै', saidIn: ['providers.alreadyDecided', 'payerErrors.provider_surplus', 'demo.unavailable.why'], rejected: [/पहिल्यै/] },
  { idea: 'reload the page', term: 'रिफ्रेस', saidIn: ['notices.formExpired.message', 'demo.formExpired.message'], rejected: [/पेज फेरि खोल्नुहोस्/] },
  // The counter card's words: scanned, then paid.
  { idea: 'scan to pay', term: 'स्क्यान गरेर', saidIn: ['link.scanToPay', 'qrWay.scan'], rejected: [/स्क्यान गरी/] },
  // A provider's way keeps its own name (`Fonepay QR`, given to the messages); the code itself is a QR कोड.
  { idea: 'a QR code', term: 'QR कोड', saidIn: ['link.notFound.message', 'qrWay.steps.scan', 'qrWay.sandboxBankApp'], rejected: [/QR(?! कोड)/] },
  { idea: 'the bank app (where a QR is paid)', term: 'बैंक एप', saidIn: ['qrWay.accountLabel', 'qrWay.sandboxBankApp', 'providers.qrDeclined'], rejected: [/बैङ्क/, /बैंकको एप/] },
  { idea: 'a wallet’s balance', term: 'ब्यालेन्स', saidIn: ['payerErrors.insufficient_balance'], rejected: [/पुग्ने रकम/] },
];

// A payment link is a merchant's standing link (/l/…); the hosted page's payment is a payment, and
// only a payment link's own messages say भुक्तानी लिङ्क.
const aboutAPaymentLink = (path: string) => path.startsWith('link.') || path === 'payerErrors.link_used_up';

// Spelled one way (Nepal's standard spelling): verbs written apart from छ, the chandrabindu where
// the vowel is nasal; and a colon never joins two clauses (`।` or `,` does).
const MISSPELLED = [/ँदैछ/, /छौं/, /झैं/, /अलैंची/, /:\s*[\u0900-\u097f]/];

const catalogue = messages(ne);

const english = messages(en);

describe('the payer’s English', () => {
  // The Nepali was mended first (a payment's time, not a link's): a hosted payment is no payment link.
  it('says payment link only where a payment link is meant', () => {
    const elsewhere = [...english].filter(([path, said]) => /payment link|\blink expire/i.test(said) && !aboutAPaymentLink(path)).map(([path]) => path);
    expect(elsewhere).toEqual([]);
    expect(english.get('checkout.expiresIn')).toBe('Time left to pay');
    expect(english.get('link.expired.title')).toContain('Payment link');
  });
});

describe('the payer’s Nepali, one term per idea', () => {
  it.each(GLOSSARY.map((entry) => [entry.idea, entry] as const))('%s', (_, { term, saidIn, rejected }) => {
    for (const path of saidIn) {
      expect(catalogue.has(path), `${path} is not a message`).toBe(true);
      expect(catalogue.get(path), path).toContain(term);
    }
    for (const [path, said] of catalogue) for (const word of rejected) expect(said, `${path} says ${word}`).not.toMatch(word);
  });

  it('says भुक्तानी लिङ्क only where a payment link is meant', () => {
    const elsewhere = [...catalogue].filter(([path, said]) => said.includes('भुक्तानी लिङ्क') && !aboutAPaymentLink(path)).map(([path]) => path);
    expect(elsewhere).toEqual([]);
    expect(catalogue.get('link.expired.title')).toContain('भुक्तानी लिङ्क');
  });

  it('spells each word one way', () => {
    for (const [path, said] of catalogue) for (const wrong of MISSPELLED) expect(said, `${path}: ${wrong}`).not.toMatch(wrong);
  });
});
