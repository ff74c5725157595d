import { Card, Heading, Text } from '@chakra-ui/react';
import { PageHeader } from '../../components/PageHeader';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useTexts } from '../../i18n';
import { NotificationsTab } from './NotificationsTab';
import { SettingsTab } from './SettingsTab';

/**
 * /manychat-admin (document 2 §2.4): the reminder settings and the API status, the manual expiry
 * check and the message templates, and a Customers placeholder; the tab in `?tab=`.
 */
export default function ManyChatAdminPage() {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t('manychatAdmin.title')} subtitle={t('manychatAdmin.subtitle')} />
      <SearchParamTabs
        tabs={[
          { value: 'settings', label: t('manychatAdmin.tab.settings'), content: <SettingsTab /> },
          { value: 'notifications', label: t('manychatAdmin.tab.notifications'), content: <NotificationsTab /> },
          { value: 'customers', label: t('manychatAdmin.tab.customers'), content: <CustomersPlaceholder /> },
        ]}
      />
    </>
  );
}

function CustomersPlaceholder() {
  const { t } = useTexts();
  return (
    <Card.Root size="sm" data-testid="customers-placeholder">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.customersTitle')}</Heading></Card.Header>
      <Card.Body><Text color="fg.muted">{t('manychatAdmin.comingSoon')}</Text></Card.Body>
    </Card.Root>
  );
}
