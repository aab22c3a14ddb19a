// The payer's words in English: every sentence of the pages a payer sees. This catalogue defines
// their shape (`Messages`); every other language's must satisfy it, so a message missing there
// fails the type check. Templates name messages and never hold sentences. A message that takes
// values is a function; one that marks some of its words up returns Html, escaping the values.
import { html, type Html } from '../http/html.js';

export const en = {
  link: {
    title: (business: string) => `Pay ${business}`,
    payTo: (business: string): Html => html`Pay <strong>${business}</strong>`,
    amountLabel: 'Amount in rupees',
    amountRange: (least: string, most: string) => `Any amount from ${least} to ${most}.`,
    nameLabel: 'Your name',
    phoneLabel: 'Your phone number',
    emailLabel: 'Your e-mail address',
    asked: (business: string) => `${business} asks for these details with your payment.`,
    continue: 'Continue to payment',
    untilEndOf: (day: string) => `Takes payments until the end of ${day}.`,
    until: (moment: string) => `Takes payments until ${moment}.`,
    problems: {
      required: 'Fill this in.',
      amount_invalid: 'Enter the amount in rupees, for example 1500 or 1,500.50.',
      amount_below_min: (least: string) => `The least you can pay here is ${least}.`,
      amount_above_max: (most: string) => `The most you can pay here is ${most}.`,
      phone_invalid: 'Enter a phone number, for example 98XXXXXXXX.',
      email_invalid: 'Enter an e-mail address, for example name@example.com.',
      too_long: 'This is too long.',
    },
    fixProblems: 'Check the details marked below.',
    notFound: { title: 'Payment link not found', message: 'This address does not lead to a payment link. Check it, or scan the code again.' },
    locked: {
      title: 'Too many wrong links',
      message: (seconds: string) => `Too many addresses that lead nowhere were opened from your network. Try again in ${seconds} seconds.`,
    },
    inactive: {
      title: 'Not taking payments',
      message: (business: string) => `${business} has turned this payment link off. If you meant to pay them, ask them for a new link.`,
    },
    expired: { title: 'Payment link expired', message: (business: string) => `This payment link of ${business} has expired. Ask them for a new one.` },
    used_up: {
      title: 'No more payments',
      message: (business: string) => `This payment link of ${business} has taken all the payments it was made for.`,
    },
    notCharged: 'You have not been charged.',
    scanToPay: 'Scan to pay',
    anyAmount: (least: string, most: string) => `Pay any amount from ${least} to ${most}`,
  },
  receipt: {
    title: 'Your payment',
    Completed: { title: 'Payment complete', message: (amount: string, business: string) => `You paid ${amount} to ${business}.` },
    'Partially refunded': { title: 'Payment partly refunded', message: (amount: string, business: string) => `You paid ${amount} to ${business}; part of it has been refunded to you.` },
    Refunded: { title: 'Payment refunded', message: (amount: string, business: string) => `You paid ${amount} to ${business}, and all of it has been refunded to you.` },
    Pending: { title: 'Payment being processed', message: (amount: string, business: string) => `Your payment of ${amount} to ${business} is being checked. It completes once it is confirmed.` },
    'User canceled': { title: 'Payment canceled', message: () => 'You canceled the payment. You have not been charged.' },
    Expired: { title: 'Payment not made', message: () => 'The time to pay ran out before the payment was made. You have not been charged.' },
    Initiated: { title: 'Payment not finished', message: () => 'This payment has not been made yet.' },
    paidFor: 'For',
    amount: 'Amount',
    transactionId: 'Transaction id',
    paidOn: 'Date',
    showSeller: 'Show this page to the seller if they ask for it.',
    payAgain: 'Pay again',
    continuePaying: 'Continue paying',
    notFound: { title: 'Payment not found', message: 'This page shows a payment made through this link. Start again from the link.' },
  },
};

export type Messages = typeof en;
