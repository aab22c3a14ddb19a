// The token string against the research notes' worked example of NCHL's published real-time body
// (NPI Specification §5.4.1, its masked accounts as published): the batch's part, the transaction's,
// the user; and the batch rail's category purpose.
import { describe, expect, it } from 'vitest';
import { npiAmount, tokenString } from './token-string.js';

const batch = { batchId: 'KHA-198706', debtorAgent: '1701', debtorBranch: '1', debtorAccount: '0010********0018', batchAmount: 20025, batchCrncy: 'NPR', categoryPurpose: 'ECPG' };
const transaction = { instructionId: 'KHA-198706-1', creditorAgent: '9935', creditorBranch: '1', creditorAccount: '0010*******374', amount: 20025 };

describe("NPI's token string", () => {
  it('joins the real-time body as published: no category purpose, two decimals, the user last', () => {
    expect(tokenString('cips', batch, [transaction], 'LAXMI@1701')).toBe('KHA-198706,1701,1,0010********0018,200.25,NPR,KHA-198706-1,9935,1,0010*******374,200.25,LAXMI@1701');
  });

  it('signs the category purpose of a batch, and each transaction in order', () => {
    const second = { ...transaction, instructionId: 'KHA-198706-2', amount: 500 };
    expect(tokenString('ips', { ...batch, batchAmount: 20525, categoryPurpose: 'CUST' }, [transaction, second], 'U@1')).toBe(
      'KHA-198706,1701,1,0010********0018,205.25,NPR,CUST,KHA-198706-1,9935,1,0010*******374,200.25,KHA-198706-2,9935,1,0010*******374,5.00,U@1',
    );
  });

  it('writes paisa as rupees with two decimals, exactly', () => {
    expect([npiAmount(0), npiAmount(5), npiAmount(1000), npiAmount(200_000_000)]).toEqual(['0.00', '0.05', '10.00', '2000000.00']);
    expect(() => npiAmount(1.5)).toThrow(RangeError);
  });
});
