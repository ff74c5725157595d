import { Button, Tabs } from '@chakra-ui/react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useTexts, type MessageKey } from '../../i18n';
import { KeysTab } from './KeysTab';
import { PricingTab } from './PricingTab';

const tabs = ['keys', 'pricing'] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, MessageKey> = { keys: 'streamingKeys.tab.keys', pricing: 'streamingKeys.tab.pricing' };
const isTab = (value: string | null): value is Tab => (tabs as readonly string[]).includes(value ?? '');

/**
 * /streaming-keys (document 3 §2): the keys of the streaming accounts with their slots, expiry and
 * tools, and the price list. The tab lives in `?tab=` so a reload or a shared link keeps it.
 */
export default function StreamingKeysPage() {
  const { t } = useTexts();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'keys';
  return (
    <>
      <PageHeader
        title={t('streamingKeys.title')}
        subtitle={t('streamingKeys.subtitle')}
        actions={
          <Button asChild variant="outline">
            <Link to="/manychat-admin">{t('streamingKeys.reminders')}</Link>
          </Button>
        }
      />
      <Tabs.Root value={tab} onValueChange={(event) => setParams({ tab: event.value }, { replace: true })} lazyMount unmountOnExit variant="line">
        <Tabs.List overflowX="auto" overflowY="hidden" mb="2">
          {tabs.map((value) => (
            <Tabs.Trigger key={value} value={value} flexShrink="0">{t(tabLabels[value])}</Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="keys"><KeysTab /></Tabs.Content>
        <Tabs.Content value="pricing"><PricingTab /></Tabs.Content>
      </Tabs.Root>
    </>
  );
}
