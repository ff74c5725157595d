import { Badge } from '@chakra-ui/react';
import { ConfigStatusGroups, groupItems } from '../../components/ConfigStatusGroups';
import { ListState, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { useConfigStatus } from './queries';
import { serviceLabel } from './services';

/** What each service has configured (its config-status items), a card per service in the registry's order. */
export function SystemsCard() {
  const { t } = useTexts();
  const status = useConfigStatus();
  const items = status.data?.data ?? [];
  const groups = groupItems(items, (item) => item.service ?? 'other').map(([service, grouped]) => ({
    key: service,
    title: t(serviceLabel(service)),
    items: grouped,
  }));
  const configured = items.filter((item) => item.configured).length;
  return (
    <SectionCard
      id="systems"
      title={t('configuration.systems.title')}
      subtitle={t('configuration.systems.subtitle')}
      badge={status.data && <Badge colorPalette="gray" data-testid="systems-summary">{t('configuration.systems.summary', { configured, total: items.length })}</Badge>}
    >
      <ListState query={status} failed={t('configuration.systems.failed')} empty={t('configuration.systems.empty')} count={items.length}>
        <ConfigStatusGroups groups={groups} testId="systems-groups" headingLevel="h3" />
      </ListState>
    </SectionCard>
  );
}
