import { isSimulatorUrl, type SecretBox } from '@bo/platform';
import type { ConfigItem } from '@bo/proto';
import type { PaymentsConfig } from './config';
import type { QpayConnection } from './operations/qpay-connection';

/** What the gateway's config-status page shows for payments (whether secrets are set, never their values; of the data key its id only). */
export async function paymentsConfigItems(config: PaymentsConfig, qpay: QpayConnection, secrets: SecretBox): Promise<ConfigItem[]> {
  const view = qpay.view(await qpay.settings());
  const simulated = isSimulatorUrl(qpay.baseUrlOf(view.qpayEnvironment));
  return [
    { name: `QPay (${view.qpayEnvironment}) ${view.enabled ? 'enabled' : 'disabled'}`, category: 'Bank payments', configured: view.enabled && Boolean(view.qpayClientId && view.qpayClientSecretSet && !view.qpayClientSecretUnreadable && view.qpayInvoiceCode), simulated },
    { name: 'Chat payment webhook secret (X-Webhook-Secret)', category: 'Bank payments', configured: view.webhookSecret !== '', simulated: false },
    { name: 'Public address for payment links and callbacks', category: 'Bank payments', configured: Boolean(config.PUBLIC_URL), simulated: isSimulatorUrl(config.PUBLIC_URL) },
    { name: 'Data encryption key (QPay client secret, chat webhook secret)', category: 'Bank payments', configured: true, simulated: false, dataKey: secrets.status },
  ];
}
