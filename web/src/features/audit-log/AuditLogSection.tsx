import { Button, Flex, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterBar, FilterField, FilterSelect } from '../../components/Filters';
import { PageHeader } from '../../components/PageHeader';
import { ListState, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { useSettled } from '../../lib/use-settled';
import type { AuditAction, AuditEntryView } from './api';
import { AuditEntryDialog } from './AuditEntryDialog';
import { AuditTable } from './AuditTable';
import { auditActionList, auditFiltersOf, entriesOf, isFiltered, NOTHING_TYPED, type TypedFilters } from './model';
import { useAuditLog } from './queries';

/** What is typed in a filter is asked for once the typing pauses. */
const TYPING_PAUSE_MS = 400;

/**
 * The audit log: every row an admin's request created, changed or deleted, across every service,
 * newest first and a page at a time, filtered by who, which table, what and when; a change's
 * details show the row before and after it.
 */
export default function AuditLogSection() {
  const { t } = useTexts();
  const [typed, setTyped] = useState<TypedFilters>(NOTHING_TYPED);
  const [settled, settle] = useSettled(typed, TYPING_PAUSE_MS);
  const [action, setAction] = useState<AuditAction | ''>('');
  const filters = auditFiltersOf(settled, action);
  const log = useAuditLog(filters);
  const { entries, unreachable } = entriesOf(log.data?.pages ?? []);
  const [open, setOpen] = useState<AuditEntryView | null>(null);

  // Spins for the refresh asked for, not for a filter's answer or an older page.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void log.refetch().finally(() => setRefreshing(false));
  };

  return (
    <>
      <PageHeader
        title={t('auditLog.title')}
        subtitle={t('auditLog.subtitle')}
        actions={<Button variant="outline" onClick={refresh} loading={refreshing}>{t('auditLog.refresh')}</Button>}
      />
      <SectionCard title={t('auditLog.listTitle')} subtitle={t('auditLog.listSubtitle')} testId="audit-card">
        <Stack gap="4">
          <Filters
            typed={typed}
            action={action}
            onType={(change) => setTyped((current) => ({ ...current, ...change }))}
            onAction={setAction}
            onClear={() => {
              setTyped(NOTHING_TYPED);
              settle(NOTHING_TYPED);
              setAction('');
            }}
          />
          {unreachable.length > 0 && (
            <ErrorAlert status="warning" testId="audit-unreachable" title={t('auditLog.unreachable', { services: unreachable.join(', ') })} />
          )}
          <ListState query={log} failed={t('auditLog.failed')} empty={isFiltered(filters) ? t('auditLog.emptyFiltered') : t('auditLog.empty')} count={entries.length}>
            <AuditTable entries={entries} onOpen={setOpen} />
            {log.hasNextPage && (
              <Flex justify="center">
                <Button variant="outline" size="sm" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} data-testid="audit-load-older">
                  {t('auditLog.loadOlder')}
                </Button>
              </Flex>
            )}
          </ListState>
        </Stack>
      </SectionCard>
      {open && <AuditEntryDialog key={open.id} entry={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function Filters({ typed, action, onType, onAction, onClear }: {
  typed: TypedFilters;
  action: AuditAction | '';
  onType: (change: Partial<TypedFilters>) => void;
  onAction: (action: AuditAction | '') => void;
  onClear: () => void;
}) {
  const { t } = useTexts();
  const anything = action !== '' || Object.values(typed).some(Boolean);
  return (
    <FilterBar testId="audit-filters">
      <FilterField label={t('auditLog.filter.actor')} width="56">
        <Input size="sm" name="actor" value={typed.actor} maxLength={200} placeholder={t('auditLog.filter.actorPlaceholder')} onChange={(event) => onType({ actor: event.target.value })} />
      </FilterField>
      <FilterField label={t('auditLog.filter.entity')} width="48">
        <Input size="sm" name="entity" value={typed.entity} maxLength={100} placeholder={t('auditLog.filter.entityPlaceholder')} onChange={(event) => onType({ entity: event.target.value })} />
      </FilterField>
      <FilterSelect label={t('auditLog.filter.action')} width="40" name="action" value={action} onChange={(value) => onAction(value as AuditAction | '')}>
        <option value="">{t('auditLog.filter.allActions')}</option>
        {auditActionList.map((name) => <option key={name} value={name}>{t(`auditLog.action.${name}`)}</option>)}
      </FilterSelect>
      <FilterField label={t('auditLog.filter.from')} width="52">
        <Input size="sm" type="datetime-local" name="from" value={typed.from} onChange={(event) => onType({ from: event.target.value })} />
      </FilterField>
      <FilterField label={t('auditLog.filter.to')} width="52">
        <Input size="sm" type="datetime-local" name="to" value={typed.to} onChange={(event) => onType({ to: event.target.value })} />
      </FilterField>
      {anything && <Button size="sm" variant="ghost" onClick={onClear}>{t('auditLog.filter.clear')}</Button>}
    </FilterBar>
  );
}
