import { Tabs } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useTexts, type MessageKey } from '../../i18n';
import { InvoicesTab } from './InvoicesTab';
import { LogsTab } from './LogsTab';
import { SettingsTab } from './SettingsTab';
import { WebhooksTab } from './WebhooksTab';

const tabs = ['settings', 'webhooks', 'invoices', 'logs'] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, MessageKey> = { settings: 'qpay.tab.settings', webhooks: 'qpay.tab.webhooks', invoices: 'qpay.tab.invoices', logs: 'qpay.tab.logs' };
const isTab = (value: string | null): value is Tab => (tabs as readonly string[]).includes(value ?? '');

/**
 * /qpay (document 3 §2): the QPay settings, the inbound addresses with a test of the chat webhook,
 * the invoices an admin acts on, and the webhook logs. The tab lives in `?tab=` so a reload or a
 * shared link keeps it; a tab's calls are made only once it is opened.
 */
export default function QpayPage() {
  const { t } = useTexts();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'settings';

  return (
    <>
      <PageHeader title={t('qpay.title')} subtitle={t('qpay.subtitle')} />
      <Tabs.Root value={tab} onValueChange={(event) => setParams({ tab: event.value }, { replace: true })} lazyMount unmountOnExit variant="line">
        <Tabs.List overflowX="auto" overflowY="hidden" mb="2">
          {tabs.map((value) => (
            <Tabs.Trigger key={value} value={value} flexShrink="0">{t(tabLabels[value])}</Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="settings"><SettingsTab /></Tabs.Content>
        <Tabs.Content value="webhooks"><WebhooksTab /></Tabs.Content>
        <Tabs.Content value="invoices"><InvoicesTab /></Tabs.Content>
        <Tabs.Content value="logs"><LogsTab /></Tabs.Content>
      </Tabs.Root>
    </>
  );
}
