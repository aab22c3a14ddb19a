// What a merchant tells the operators about its business when it applies to go live.
// One definition of the fields, so the website's form and the console show the same rules.
import { choice, object, text, url } from '../http/fields.js';

export const businessTypes = ['Sole proprietorship', 'Partnership', 'Private limited company', 'Public limited company', 'Cooperative', 'Non-profit organisation'] as const;
export type BusinessType = (typeof businessTypes)[number];

export interface BusinessDetails {
  legalName: string;
  businessType: BusinessType;
  /** Nepal's PAN (or VAT) number: 9 digits. */
  panNumber: string;
  address: string;
  contactPerson: string;
  phone: string;
  /** Empty when the business has no website. */
  website: string;
  updatedAt: Date;
}

const PAN = /^\d{9}$/;
// A Nepali mobile (98…) or landline with its area code, optionally +977: 7 to 15 digits in all.
const PHONE = /^\+?\d{7,15}$/;

/** The PAN without the spaces and dashes people type in it. */
export const normalPanNumber = (raw: string) => raw.replace(/[\s-]/g, '');
export const normalPhone = (raw: string) => raw.replace(/[\s()-]/g, '');

export const businessDetailsRequest = object({
  legal_name: text({ required: true, maxLength: 200, description: 'The registered name of the business.' }),
  business_type: choice(businessTypes, { required: true }),
  pan_number: text({
    required: true,
    maxLength: 20,
    check: (v) => (PAN.test(normalPanNumber(v)) ? undefined : 'Enter the PAN or VAT number: 9 digits.'),
  }),
  address: text({ required: true, maxLength: 300 }),
  contact_person: text({ required: true, maxLength: 100 }),
  phone: text({
    required: true,
    maxLength: 20,
    check: (v) => (PHONE.test(normalPhone(v)) ? undefined : 'Enter a phone number: 7 to 15 digits, optionally starting with +.'),
  }),
  website: url({ maxLength: 300 }),
});
