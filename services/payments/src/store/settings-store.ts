import type { PaymentsDb } from './invoice-store';
import type { QpaySettings } from '../generated/prisma/client';

export type SettingsChange = Pick<QpaySettings, 'qpayClientId' | 'qpayInvoiceCode' | 'qpayCallbackUrl' | 'qpayEnvironment' | 'enabled'> & { sealedSecret?: string };

/** qpay_settings is one row (id 1). */
export const settingsStore = {
  read: (db: PaymentsDb) => db.qpaySettings.findUnique({ where: { id: 1 } }),

  /** A fresh database's first row, from the environment; an existing row is never overwritten. */
  seed: (db: PaymentsDb, initial: SettingsChange) =>
    db.qpaySettings.upsert({
      where: { id: 1 },
      update: {},
      create: { id: 1, qpayClientId: initial.qpayClientId, qpayClientSecret: initial.sealedSecret ?? '', qpayInvoiceCode: initial.qpayInvoiceCode, qpayCallbackUrl: initial.qpayCallbackUrl, qpayEnvironment: initial.qpayEnvironment, enabled: initial.enabled },
    }),

  /** The first chat webhook secret: written only where none is stored yet (a fresh database, or one from before the secret was kept here). */
  seedWebhookSecret: (db: PaymentsDb, sealed: string) => db.qpaySettings.updateMany({ where: { id: 1, webhookSecret: '' }, data: { webhookSecret: sealed } }),

  rotateWebhookSecret: (db: PaymentsDb, sealed: string) => db.qpaySettings.update({ where: { id: 1 }, data: { webhookSecret: sealed, webhookSecretRotatedAt: new Date() } }),

  save: (db: PaymentsDb, change: SettingsChange) => {
    const { sealedSecret, ...fields } = change;
    const data = { ...fields, ...(sealedSecret === undefined ? {} : { qpayClientSecret: sealedSecret }), updatedAt: new Date() };
    return db.qpaySettings.upsert({ where: { id: 1 }, update: data, create: { id: 1, ...data } });
  },
};
