import { z } from 'zod';
import { defineEvent } from '../envelope';
import { payerSchema, serviceCodeSchema } from '../money';

/** The key's fields every key event carries; `revision` grows with every change of the key. */
const keyFacts = {
  keyId: z.number().int(),
  revision: z.number().int().positive(),
  key: z.string(),
  service: serviceCodeSchema,
  /** The account e-mail the key is a profile of (its sign-in details are read at delivery time). */
  accountEmail: z.string(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  /** The chat subscriber who holds the key; null when unknown (an admin's order without one). */
  customerId: z.string().nullable(),
};

/** A sold key: a free slot taken for a paid order (or given by an admin's assign-key). */
export const streamingKeyAssigned = defineEvent({
  name: 'streaming.key.assigned',
  version: 1,
  payload: z.object({
    ...keyFacts,
    invoiceId: z.string(),
    streamingInvoiceId: z.number().int(),
    months: z.number().int(),
    amount: z.number().int(),
    payer: payerSchema,
  }),
  entity: { name: 'key', key: 'keyId', revision: 'revision' },
  example: {
    keyId: 41, revision: 2, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', accountEmail: 'nfx.account1@example.mn', profileNumber: 3,
    expiresAt: '2026-12-23T08:00:00.000Z', customerId: '1234567', invoiceId: 'INV-7K3Q9X2M4P', streamingInvoiceId: 12, months: 1, amount: 35000,
    payer: { name: 'Бат-Эрдэнэ', email: 'bat@example.mn', phone: '99112233', subscriberId: '1234567' },
  },
});

/** A key's expiry moved later: a paid renewal (invoiceId set) or an admin's extend (invoiceId null). */
export const streamingKeyExtended = defineEvent({
  name: 'streaming.key.extended',
  version: 1,
  payload: z.object({
    ...keyFacts,
    previousExpiresAt: z.string(),
    invoiceId: z.string().nullable(),
    months: z.number().int().nullable(),
    amount: z.number().int().nullable(),
  }),
  entity: { name: 'key', key: 'keyId', revision: 'revision' },
  example: {
    keyId: 41, revision: 3, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', accountEmail: 'nfx.account1@example.mn', profileNumber: 3,
    expiresAt: '2027-01-23T08:00:00.000Z', customerId: '1234567', previousExpiresAt: '2026-12-23T08:00:00.000Z', invoiceId: 'INV-R2D9Q1W8E5', months: 1, amount: 35000,
  },
});
