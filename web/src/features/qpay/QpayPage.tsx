import { PageHeader } from '../../components/PageHeader';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useTexts } from '../../i18n';
import { InvoicesTab } from './InvoicesTab';
import { LogsTab } from './LogsTab';
import { OrdersWaitingAlert } from './OrdersWaitingAlert';
import { SettingsTab } from './SettingsTab';
import { WebhooksTab } from './WebhooksTab';

/**
 * /qpay (document 3 §2): the QPay settings, the inbound addresses with a test of the chat webhook,
 * the invoices an admin acts on, and the webhook logs; the tab in `?tab=`.
 */
export default function QpayPage() {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t('qpay.title')} subtitle={t('qpay.subtitle')} />
      <OrdersWaitingAlert />
      <SearchParamTabs
        tabs={[
          { value: 'settings', label: t('qpay.tab.settings'), content: <SettingsTab /> },
          { value: 'webhooks', label: t('qpay.tab.webhooks'), content: <WebhooksTab /> },
          { value: 'invoices', label: t('qpay.tab.invoices'), content: <InvoicesTab /> },
          { value: 'logs', label: t('qpay.tab.logs'), content: <LogsTab /> },
        ]}
      />
    </>
  );
}
