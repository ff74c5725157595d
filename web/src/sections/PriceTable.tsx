import { Button, Flex, Input, Table } from '@chakra-ui/react';
import { useState } from 'react';
import { t, type MessageKey } from '../i18n';
import { errorText } from '../lib/api';
import { useUpdateSheetRow } from '../lib/mutations';
import { notify } from '../lib/toast';
import type { PriceRow, WoocommerceSyncOutcome } from '../lib/types';

/** Sheet columns A..K in order; the header names come from the catalogue ('description' reads SKU). */
const columns = [
  'type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice',
  'salePrice', 'status', 'stockStatus', 'attributes', 'categories',
] as const satisfies readonly (keyof PriceRow)[];

const placeholders: Partial<Record<keyof PriceRow, MessageKey>> = {
  salePrice: 'sheets.optional',
  status: 'sheets.statusPlaceholder',
};

const syncSuffix: Record<WoocommerceSyncOutcome, MessageKey> = {
  success: 'sheets.sync.success',
  no_mapping: 'sheets.sync.no_mapping',
  failed: 'sheets.sync.failed',
  not_configured: 'sheets.sync.not_configured',
};

/**
 * On wide screens the free-text columns wrap so that every column fits beside the sidebar at 1440 px;
 * on narrow ones the table scrolls sideways anyway, so each row stays one line. Codes and numbers never wrap.
 */
const wrappedMinWidth: Partial<Record<keyof PriceRow, string>> = { product: '36', attributes: '28', categories: '20' };
const cellLayout = (column: keyof PriceRow) => {
  const minW = wrappedMinWidth[column];
  return minW ? { whiteSpace: { base: 'nowrap', xl: 'normal' }, minW: { xl: minW } } : { whiteSpace: 'nowrap' };
};

/** The actions column stays in view while the wide table scrolls sideways. */
const stickyEnd = { position: 'sticky', right: '0', bg: 'bg', boxShadow: 'inset 1px 0 0 var(--chakra-colors-border)' } as const;

/** One row at a time is in edit mode: Update writes it to the sheet, Cancel throws the draft away. */
export function PriceTable({ rows }: { rows: PriceRow[] }) {
  const [editing, setEditing] = useState<{ index: number; draft: PriceRow } | null>(null);
  const update = useUpdateSheetRow({
    onSuccess: (reply) => {
      setEditing(null);
      notify({ title: t('sheets.updated') + t(syncSuffix[reply.woocommerceSync]), description: t('sheets.updatedBody'), type: 'success' });
    },
    onError: (error) => notify({ title: t('sheets.updateFailed'), description: errorText(error, t('sheets.updateFailedDefault')), type: 'error' }),
  });

  const save = () => {
    if (!editing) return;
    update.mutate({ ...editing.draft, originalProduct: rows[editing.index].product });
  };

  return (
    <Table.ScrollArea>
      <Table.Root size="sm" striped data-testid="price-table">
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeader key={column} whiteSpace="nowrap">{t(`sheets.col.${column}`)}</Table.ColumnHeader>
            ))}
            <Table.ColumnHeader {...stickyEnd}>{t('sheets.col.actions')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row, index) => {
            const draft = editing?.index === index ? editing.draft : null;
            return (
              <Table.Row key={`${index}-${row.product}`} data-product={row.product}>
                {columns.map((column) => (
                  <Table.Cell key={column} {...cellLayout(column)}>
                    {draft ? (
                      <Input
                        size="xs"
                        minW="24"
                        name={column}
                        aria-label={t(`sheets.col.${column}`)}
                        value={draft[column]}
                        placeholder={placeholders[column] && t(placeholders[column])}
                        onChange={(event) => setEditing({ index, draft: { ...draft, [column]: event.target.value } })}
                      />
                    ) : (
                      row[column]
                    )}
                  </Table.Cell>
                ))}
                <Table.Cell {...stickyEnd}>
                  {draft ? (
                    <Flex gap="2">
                      <Button size="xs" colorPalette="blue" onClick={save} disabled={update.isPending}>
                        {update.isPending ? t('sheets.updating') : t('sheets.update')}
                      </Button>
                      <Button size="xs" variant="outline" onClick={() => setEditing(null)} disabled={update.isPending}>
                        {update.isPending ? t('sheets.updating') : t('sheets.cancel')}
                      </Button>
                    </Flex>
                  ) : (
                    <Button size="xs" variant="outline" onClick={() => setEditing({ index, draft: row })} disabled={update.isPending}>
                      {t('sheets.edit')}
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
