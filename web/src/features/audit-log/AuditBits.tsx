import { Badge } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import type { AuditAction, AuditEntryView } from './api';
import { actionPalette } from './model';

/** What the change did, coloured: created green, updated blue, deleted red, imported purple. */
export function ActionBadge({ action }: { action: AuditAction }) {
  const { t } = useTexts();
  return (
    <Badge colorPalette={actionPalette[action]} data-testid="audit-action" data-action={action} whiteSpace="nowrap">
      {t(`auditLog.action.${action}`)}
    </Badge>
  );
}

/** Which row changed: 'row 12'; an import's entry stands for its whole table. */
export function useRowName(): (entry: Pick<AuditEntryView, 'action' | 'entityId'>) => string {
  const { t } = useTexts();
  return (entry) => {
    if (entry.entityId !== null) return t('auditLog.row', { id: entry.entityId });
    return entry.action === 'import' ? t('auditLog.wholeTable') : t('auditLog.noRow');
  };
}
