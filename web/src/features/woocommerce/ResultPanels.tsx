import { Badge, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { useTexts, type MessageKey } from '../../i18n';
import type { AutoMapReply, AutoMapResult, ExportReply } from './api';
import { Count } from './Count';

const outcomeBadge: Record<AutoMapResult['outcome'], { label: MessageKey; palette: string }> = {
  mapped: { label: 'woocommerce.outcome.mapped', palette: 'green' },
  unchanged: { label: 'woocommerce.outcome.unchanged', palette: 'gray' },
  kept_manual: { label: 'woocommerce.outcome.kept_manual', palette: 'purple' },
  not_found: { label: 'woocommerce.outcome.not_found', palette: 'red' },
};

const matchedByLabel: Record<NonNullable<AutoMapResult['matchedBy']>, MessageKey> = {
  id: 'woocommerce.matchedBy.id',
  sku: 'woocommerce.matchedBy.sku',
  name: 'woocommerce.matchedBy.name',
};

function PanelHeader({ title, onClose }: { title: string; onClose: () => void }) {
  const { t } = useTexts();
  return (
    <Card.Header>
      <Flex justify="space-between" align="center" gap="2">
        <Heading as="h2" size="md">{title}</Heading>
        <Button size="xs" variant="ghost" onClick={onClose}>{t('common.close')}</Button>
      </Flex>
    </Card.Header>
  );
}

/**
 * What auto-map did, row by row. Rows it left alone because the operator had mapped them by hand
 * (kept_manual) are listed too, so nobody wonders why a manual mapping did not change.
 */
export function AutoMapResults({ result, onClose }: { result: AutoMapReply; onClose: () => void }) {
  const { t } = useTexts();
  const columns: Column<AutoMapResult>[] = [
    // The service's explanation sits under the name, and the outcome right beside it: both in view on a phone.
    {
      key: 'product',
      header: t('woocommerce.col.product'),
      cell: (row) => (
        <Stack gap="0.5">
          <Text fontWeight="medium">{row.productName}</Text>
          <Text fontSize="xs" color="fg.muted">{row.message}</Text>
        </Stack>
      ),
      cellProps: { minW: { base: '40', md: '72' }, whiteSpace: 'normal' },
    },
    {
      key: 'outcome',
      header: t('woocommerce.col.outcome'),
      cell: (row) => <Badge colorPalette={outcomeBadge[row.outcome].palette}>{t(outcomeBadge[row.outcome].label)}</Badge>,
    },
    { key: 'id', header: t('woocommerce.col.woocommerceId'), cell: (row) => row.woocommerceId ?? '—' },
    { key: 'matchedBy', header: t('woocommerce.col.matchedBy'), cell: (row) => (row.matchedBy ? t(matchedByLabel[row.matchedBy]) : '—') },
  ];
  return (
    <Card.Root size="sm" data-testid="auto-map-results">
      <PanelHeader title={t('woocommerce.autoMapResults')} onClose={onClose} />
      <Card.Body>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 3 }} gap="3" maxW={{ md: 'xl' }}>
            <Count label={t('woocommerce.count.mapped')} value={result.mapped} palette={result.mapped ? 'green' : undefined} testId="auto-map-mapped" />
            <Count label={t('woocommerce.count.failed')} value={result.failed} palette={result.failed ? 'red' : undefined} testId="auto-map-failed" />
            <Count label={t('woocommerce.count.kept')} value={result.kept} palette={result.kept ? 'purple' : undefined} testId="auto-map-kept" />
          </SimpleGrid>
          {result.results.length === 0 ? (
            <Text color="fg.muted">{t('woocommerce.autoMapNothing')}</Text>
          ) : (
            <DataTable
              columns={columns}
              rows={result.results}
              rowKey={(row) => row.productName}
              rowProps={(row) => ({ 'data-product': row.productName, 'data-outcome': row.outcome })}
              caption={t('woocommerce.autoMapResults')}
              testId="auto-map-table"
            />
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

export function ExportResults({ result, onClose }: { result: ExportReply; onClose: () => void }) {
  const { t } = useTexts();
  return (
    <Card.Root size="sm" data-testid="export-results">
      <PanelHeader title={t('woocommerce.exportResults')} onClose={onClose} />
      <Card.Body>
        <SimpleGrid columns={{ base: 2, md: 3 }} gap="3" maxW={{ md: 'xl' }}>
          <Count label={t('woocommerce.count.productsExported')} value={result.productsExported} palette={result.productsExported ? 'green' : undefined} testId="export-products" />
          <Count label={t('woocommerce.count.totalRows')} value={result.totalRows} testId="export-rows" />
          <Count label={t('woocommerce.count.sheetName')} value={result.sheetName} testId="export-sheet" />
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
