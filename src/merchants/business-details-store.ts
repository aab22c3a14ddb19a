// The SQL of merchants' business details (migration 012).
import type { Queryable } from '../db/db.js';
import type { BusinessDetails, BusinessType } from './business-details.js';

interface Row {
  legal_name: string;
  business_type: BusinessType;
  pan_number: string;
  address: string;
  contact_person: string;
  phone: string;
  website: string;
  updated_at: Date;
}

export async function findBusinessDetails(db: Queryable, merchantId: number): Promise<BusinessDetails | undefined> {
  const [row] = await db.query<Row>(
    'SELECT legal_name, business_type, pan_number, address, contact_person, phone, website, updated_at FROM merchant_business_details WHERE merchant_id = $1',
    [merchantId],
  );
  return (
    row && {
      legalName: row.legal_name,
      businessType: row.business_type,
      panNumber: row.pan_number,
      address: row.address,
      contactPerson: row.contact_person,
      phone: row.phone,
      website: row.website,
      updatedAt: row.updated_at,
    }
  );
}

/** Sets the merchant's details, replacing the ones before. */
export async function saveBusinessDetails(db: Queryable, merchantId: number, d: BusinessDetails): Promise<void> {
  await db.query(
    `INSERT INTO merchant_business_details (merchant_id, legal_name, business_type, pan_number, address, contact_person, phone, website, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (merchant_id) DO UPDATE
        SET legal_name = EXCLUDED.legal_name, business_type = EXCLUDED.business_type, pan_number = EXCLUDED.pan_number,
            address = EXCLUDED.address, contact_person = EXCLUDED.contact_person, phone = EXCLUDED.phone,
            website = EXCLUDED.website, updated_at = EXCLUDED.updated_at`,
    [merchantId, d.legalName, d.businessType, d.panNumber, d.address, d.contactPerson, d.phone, d.website, d.updatedAt],
  );
}
