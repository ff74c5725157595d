import { Badge, Box, Button, Card, Flex, Heading, Spinner, Text } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts, type MessageKey } from '../../i18n';
import type { PricePush } from './api';
import { PriceCell } from './PriceCell';
import { usePricePushes } from './queries';

const outcomeBadge: Record<PricePush['outcome'], { label: MessageKey; palette: string }> = {
  pending: { label: 'woocommerce.push.pending', palette: 'blue' },
  success: { label: 'woocommerce.push.success', palette: 'green' },
  no_mapping: { label: 'woocommerce.push.no_mapping', palette: 'gray' },
  failed: { label: 'woocommerce.push.failed', palette: 'red' },
  not_configured: { label: 'woocommerce.push.not_configured', palette: 'orange' },
};

/** What became of the latest price edits in the shop: the outcome of each, and the shop's error when it failed. */
export function PricePushesCard() {
  const { t, format } = useTexts();
  const pushes = usePricePushes();
  const rows = pushes.data?.data ?? [];
  const columns: Column<PricePush>[] = [
    { key: 'product', header: t('woocommerce.col.product'), cell: (row) => row.productName, cellProps: { minW: '40', whiteSpace: 'normal', fontWeight: 'medium' } },
    {
      key: 'outcome',
      header: t('woocommerce.col.outcome'),
      cell: (row) => <Badge colorPalette={outcomeBadge[row.outcome].palette}>{t(outcomeBadge[row.outcome].label)}</Badge>,
    },
    { key: 'price', header: t('woocommerce.col.newPrice'), cell: (row) => <PriceCell regular={row.regularPrice} sale={row.salePrice} /> },
    {
      key: 'error',
      header: t('woocommerce.col.error'),
      cell: (row) => (row.error ? <Text color="red.600" fontSize="sm">{row.error}</Text> : '—'),
      cellProps: { minW: '56', whiteSpace: 'normal' },
    },
    { key: 'revision', header: t('woocommerce.col.revision'), cell: (row) => row.revision },
    { key: 'time', header: t('woocommerce.col.editedAt'), cell: (row) => format.dateTime(row.createdAt) },
  ];
  return (
    <Card.Root size="sm" data-testid="price-pushes">
      <Card.Header>
        <Flex justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="3" direction={{ base: 'column', sm: 'row' }}>
          <Box>
            <Heading as="h2" size="md">{t('woocommerce.pushesTitle')}</Heading>
            <Text fontSize="sm" color="fg.muted">{t('woocommerce.pushesSubtitle')}</Text>
          </Box>
          <Button variant="outline" size="sm" onClick={() => void pushes.refetch()} loading={pushes.isFetching && !pushes.isPending} flexShrink="0">
            {t('woocommerce.refresh')}
          </Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {pushes.isPending && (
          <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('woocommerce.pushesLoading')}</Text></Flex>
        )}
        {pushes.isError && <ErrorAlert testId="pushes-error" title={t('woocommerce.pushesError')} description={pushes.error.message} />}
        {pushes.isSuccess && rows.length === 0 && <Text color="fg.muted">{t('woocommerce.pushesEmpty')}</Text>}
        {rows.length > 0 && (
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.eventId}
            rowProps={(row) => ({ 'data-product': row.productName, 'data-outcome': row.outcome })}
            caption={t('woocommerce.pushesTitle')}
            testId="pushes-table"
          />
        )}
      </Card.Body>
    </Card.Root>
  );
}
