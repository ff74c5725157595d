import { maskSecret, serviceUnavailable, type SecretBox } from '@bo/platform';
import type { QpaySettingsView } from '@bo/proto';
import type { OutsideOptions, OutsideSystem } from '@bo/platform/outside';
import { QpayClient, qpaySystem } from '../clients/qpay';
import type { PaymentsConfig } from '../config';
import type { PrismaClient, QpaySettings } from '../generated/prisma/client';
import { settingsStore } from '../store/settings-store';
import { WEBHOOK_SECRET_NAME } from './webhook-secret';

export const WEBHOOK_PATH = '/api/qpay/webhook';
export const CALLBACK_PATH = '/api/qpay/callback';
/** How errors name the sealed client secret (one that cannot be opened answers 503 naming its key id). */
const CLIENT_SECRET = 'The QPay client secret';

/** The settings an invoice is made with, the secret opened. */
export interface ActiveQpay {
  client: QpayClient;
  invoiceCode: string;
  environment: 'sandbox' | 'production';
  callbackBase: string;
}

/**
 * The QPay connection as the settings say now. Settings are read from the database on every use
 * (another replica may have saved new ones); the client, and with it its token, is kept while
 * the credentials and environment stay the same.
 */
export class QpayConnection {
  /** By base URL and credentials: a client keeps its token while they stay the same. */
  private readonly clients = new Map<string, QpayClient>();
  /** By base URL: the outside system (its breaker and metrics) outlives a change of credentials. */
  private readonly systems = new Map<string, OutsideSystem>();

  constructor(private readonly deps: { prisma: PrismaClient; config: PaymentsConfig; secrets: SecretBox; outside: (options: OutsideOptions) => OutsideSystem }) {}

  /** Writes the environment's settings into a fresh database (the embedded run's simulator merchant, or a deployment's). */
  async seedFromEnvironment(): Promise<void> {
    const { config, secrets, prisma } = this.deps;
    await settingsStore.seed(prisma, {
      qpayClientId: config.QPAY_CLIENT_ID ?? '',
      sealedSecret: config.QPAY_CLIENT_SECRET ? secrets.seal(config.QPAY_CLIENT_SECRET) : undefined,
      qpayInvoiceCode: config.QPAY_INVOICE_CODE ?? '',
      qpayCallbackUrl: '',
      qpayEnvironment: config.QPAY_ENVIRONMENT,
      enabled: config.QPAY_ENABLED,
    });
  }

  async settings(): Promise<QpaySettings | null> {
    return settingsStore.read(this.deps.prisma);
  }

  view(settings: QpaySettings | null): QpaySettingsView {
    // A secret sealed with a key this server lacks is shown as unreadable; the rest of the page still works.
    const secret = settings?.qpayClientSecret ? this.deps.secrets.openForView(settings.qpayClientSecret, CLIENT_SECRET) : { plain: '', unreadable: null };
    const webhookSecret = settings?.webhookSecret ? this.deps.secrets.openForView(settings.webhookSecret, WEBHOOK_SECRET_NAME) : { plain: '', unreadable: null };
    const publicUrl = this.deps.config.PUBLIC_URL;
    return {
      qpayClientId: settings?.qpayClientId ?? '',
      qpayClientSecret: maskSecret(secret.plain ?? ''),
      qpayClientSecretSet: Boolean(settings?.qpayClientSecret),
      qpayClientSecretUnreadable: secret.unreadable,
      qpayInvoiceCode: settings?.qpayInvoiceCode ?? '',
      qpayCallbackUrl: settings?.qpayCallbackUrl ?? '',
      qpayEnvironment: settings?.qpayEnvironment === 'production' ? 'production' : 'sandbox',
      enabled: settings?.enabled ?? false,
      webhookPath: WEBHOOK_PATH,
      callbackPath: CALLBACK_PATH,
      webhookUrl: `${publicUrl}${WEBHOOK_PATH}`,
      callbackUrl: this.callbackBase(settings),
      updatedAt: settings?.updatedAt?.toISOString() ?? null,
      webhookSecret: maskSecret(webhookSecret.plain ?? ''),
      webhookSecretUnreadable: webhookSecret.unreadable,
      webhookSecretRotatedAt: settings?.webhookSecretRotatedAt?.toISOString() ?? null,
    };
  }

  private callbackBase(settings: QpaySettings | null): string {
    return settings?.qpayCallbackUrl || `${this.deps.config.PUBLIC_URL}${CALLBACK_PATH}`;
  }

  baseUrlOf(environment: string): string {
    return environment === 'production' ? this.deps.config.QPAY_PRODUCTION_URL : this.deps.config.QPAY_SANDBOX_URL;
  }

  /** The client for new invoices; a 503 saying what to do when QPay is off or incomplete. */
  async active(): Promise<ActiveQpay> {
    const settings = await this.settings();
    if (!settings?.enabled) throw serviceUnavailable('QPay is not enabled: turn it on in Bank payments → Settings');
    if (!settings.qpayClientId || !settings.qpayClientSecret || !settings.qpayInvoiceCode) {
      throw serviceUnavailable('QPay is not fully set up: fill in the client id, client secret and invoice code in Bank payments → Settings');
    }
    const environment = settings.qpayEnvironment === 'production' ? 'production' : 'sandbox';
    return { client: this.clientFor(settings, environment), invoiceCode: settings.qpayInvoiceCode, environment, callbackBase: this.callbackBase(settings) };
  }

  /**
   * The client for an invoice already made: the environment it was made in, with today's
   * credentials (checks and cancels keep working after QPay is switched off for new invoices).
   */
  async forInvoice(environment: string): Promise<QpayClient> {
    const settings = await this.settings();
    if (!settings?.qpayClientId || !settings.qpayClientSecret) throw serviceUnavailable('QPay has no client id and secret: set them in Bank payments → Settings');
    return this.clientFor(settings, environment);
  }

  private clientFor(settings: QpaySettings, environment: string): QpayClient {
    const baseUrl = this.baseUrlOf(environment);
    const fingerprint = `${baseUrl}|${settings.qpayClientId}|${settings.qpayClientSecret}`;
    let client = this.clients.get(fingerprint);
    if (!client) {
      const clientSecret = this.deps.secrets.open(settings.qpayClientSecret, CLIENT_SECRET);
      let system = this.systems.get(baseUrl);
      if (!system) this.systems.set(baseUrl, (system = this.deps.outside(qpaySystem({ environment, baseUrl, timeoutMs: this.deps.config.QPAY_TIMEOUT_MS }))));
      client = new QpayClient(system, { clientId: settings.qpayClientId, clientSecret });
      this.clients.set(fingerprint, client);
    }
    return client;
  }
}
