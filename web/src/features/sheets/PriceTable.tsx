import { Button, Flex, Input } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { useTexts, type MessageKey } from '../../i18n';
import { amountOf } from '../../lib/format';
import { notify, notifyError } from '../../lib/toast';
import type { PriceRow, WoocommerceSyncOutcome } from './api';
import { useUpdateSheetRow } from './mutations';

/** Sheet columns A..K in order; the header names come from the catalogue ('description' reads SKU). */
const sheetColumns = [
  'type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice',
  'salePrice', 'status', 'stockStatus', 'attributes', 'categories',
] as const satisfies readonly (keyof PriceRow)[];
type SheetColumn = (typeof sheetColumns)[number];

const placeholders: Partial<Record<SheetColumn, MessageKey>> = {
  salePrice: 'sheets.optional',
  status: 'sheets.statusPlaceholder',
};

/** Amounts in these columns read as tugriks ('₮45,000') while not being edited. */
const amountColumns = new Set<SheetColumn>(['regularPrice', 'salePrice']);

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
const wrappedMinWidth: Partial<Record<SheetColumn, string>> = { product: '36', attributes: '28', categories: '20' };
const cellLayout = (column: SheetColumn) => {
  const minW = wrappedMinWidth[column];
  return minW ? { whiteSpace: { base: 'nowrap', xl: 'normal' }, minW: { xl: minW } } : { whiteSpace: 'nowrap' };
};

/** The actions column stays in view while the wide table scrolls sideways. */
const stickyEnd = { position: 'sticky', right: '0', bg: 'bg', boxShadow: 'inset 1px 0 0 var(--chakra-colors-border)' } as const;

/**
 * One row at a time is in edit mode: Update writes it to the sheet, Cancel throws the draft away.
 * The row being edited is held by the product it started with, never by its position: the 60 s
 * refetch may reorder the rows while the user types, and Update must still write that product.
 */
export function PriceTable({ rows }: { rows: PriceRow[] }) {
  const { t, format } = useTexts();
  const [editing, setEditing] = useState<{ product: string; draft: PriceRow } | null>(null);
  const update = useUpdateSheetRow({
    onSuccess: (reply) => {
      setEditing(null);
      notify({ title: t('sheets.updated') + t(syncSuffix[reply.woocommerceSync]), description: t('sheets.updatedBody'), type: 'success' });
    },
    onError: (error) => notifyError(t('sheets.updateFailed'), error, t('sheets.updateFailedDefault')),
  });
  const draftOf = (row: PriceRow) => (editing?.product === row.product ? editing.draft : null);

  const save = () => {
    if (editing) update.mutate({ ...editing.draft, originalProduct: editing.product });
  };

  const showCell = (row: PriceRow, column: SheetColumn) => {
    const amount = amountColumns.has(column) ? amountOf(row[column] ?? '') : null;
    return amount === null ? row[column] : format.tugrik(amount);
  };

  const columns: Column<PriceRow>[] = [
    ...sheetColumns.map((column) => ({
      key: column,
      header: t(`sheets.col.${column}`),
      // Longer headers (Mongolian) wrap on wide screens rather than push the last columns under the actions.
      headerProps: { whiteSpace: { base: 'nowrap', xl: 'normal' } },
      cellProps: cellLayout(column),
      cell: (row: PriceRow) => {
        const draft = draftOf(row);
        if (!draft) return showCell(row, column);
        return (
          <Input
            size="xs"
            minW="24"
            name={column}
            aria-label={t('sheets.fieldLabel', { column: t(`sheets.col.${column}`), product: row.product })}
            value={draft[column] ?? ''}
            placeholder={placeholders[column] && t(placeholders[column])}
            onChange={(event) => setEditing({ product: row.product, draft: { ...draft, [column]: event.target.value } })}
          />
        );
      },
    })),
    {
      key: 'actions',
      header: t('sheets.col.actions'),
      headerProps: stickyEnd,
      cellProps: stickyEnd,
      cell: (row) =>
        draftOf(row) ? (
          <Flex gap="2">
            <Button size="xs" colorPalette="blue" onClick={save} disabled={update.isPending} aria-label={t('sheets.updateRow', { product: row.product })}>
              {update.isPending ? t('sheets.updating') : t('sheets.update')}
            </Button>
            <Button size="xs" variant="outline" onClick={() => setEditing(null)} disabled={update.isPending} aria-label={t('sheets.cancelRow', { product: row.product })}>
              {update.isPending ? t('sheets.updating') : t('sheets.cancel')}
            </Button>
          </Flex>
        ) : (
          <Button
            size="xs"
            variant="outline"
            onClick={() => setEditing({ product: row.product, draft: row })}
            disabled={update.isPending}
            aria-label={t('sheets.editRow', { product: row.product })}
          >
            {t('sheets.edit')}
          </Button>
        ),
    },
  ];

  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(row) => row.product}
      rowProps={(row) => ({ 'data-product': row.product })}
      caption={t('sheets.title')}
      testId="price-table"
    />
  );
}
