import { Card, Heading, Tabs, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useTexts, type MessageKey } from '../../i18n';
import { NotificationsTab } from './NotificationsTab';
import { SettingsTab } from './SettingsTab';

const tabs = ['settings', 'notifications', 'customers'] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, MessageKey> = { settings: 'manychatAdmin.tab.settings', notifications: 'manychatAdmin.tab.notifications', customers: 'manychatAdmin.tab.customers' };
const isTab = (value: string | null): value is Tab => (tabs as readonly string[]).includes(value ?? '');

/**
 * /manychat-admin (document 2 §2.4): the reminder settings and the API status, the manual expiry
 * check and the message templates, and a Customers placeholder. The tab lives in `?tab=`.
 */
export default function ManyChatAdminPage() {
  const { t } = useTexts();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'settings';
  return (
    <>
      <PageHeader title={t('manychatAdmin.title')} subtitle={t('manychatAdmin.subtitle')} />
      <Tabs.Root value={tab} onValueChange={(event) => setParams({ tab: event.value }, { replace: true })} lazyMount unmountOnExit variant="line">
        <Tabs.List overflowX="auto" overflowY="hidden" mb="2">
          {tabs.map((value) => (
            <Tabs.Trigger key={value} value={value} flexShrink="0">{t(tabLabels[value])}</Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="settings"><SettingsTab /></Tabs.Content>
        <Tabs.Content value="notifications"><NotificationsTab /></Tabs.Content>
        <Tabs.Content value="customers">
          <Card.Root size="sm" data-testid="customers-placeholder">
            <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.customersTitle')}</Heading></Card.Header>
            <Card.Body><Text color="fg.muted">{t('manychatAdmin.comingSoon')}</Text></Card.Body>
          </Card.Root>
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
