import { Alert, Box, Button, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import type { PriceDifference, ReconciliationReply } from './api';
import { useSyncOne } from './mutations';
import { PriceCell } from './PriceCell';
import { useReconciliation } from './queries';
import { stickyEnd } from './sticky';

/**
 * Mapped products whose shop price differs from the sheet (each with a Fix that pushes the sheet's
 * price now), and mapped products the shop no longer has: reported, never re-created.
 */
export function ReconciliationCard({ connected }: { connected: boolean }) {
  const { t, format } = useTexts();
  const [requested, setRequested] = useState(false);
  const check = useReconciliation(requested);
  const report = check.data;

  const run = () => {
    if (requested) void check.refetch();
    else setRequested(true);
  };

  return (
    <Card.Root size="sm" data-testid="reconciliation">
      <Card.Header>
        <Flex justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="3" direction={{ base: 'column', sm: 'row' }}>
          <Box>
            <Heading as="h2" size="md">{t('woocommerce.reconciliationTitle')}</Heading>
            <Text fontSize="sm" color="fg.muted">{t('woocommerce.reconciliationSubtitle')}</Text>
          </Box>
          <Button variant="outline" onClick={run} disabled={!connected} loading={check.isFetching} flexShrink="0">
            {t('woocommerce.check')}
          </Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {check.isError && <ErrorAlert testId="reconciliation-error" title={t('woocommerce.reconciliationError')} description={check.error.message} />}
        {!report && !check.isError && <Text color="fg.muted">{t('woocommerce.reconciliationNotRun')}</Text>}
        {report && (
          <Stack gap="4">
            <Text fontSize="sm" color="fg.muted" data-testid="reconciliation-summary">
              {t('woocommerce.reconciliationChecked', { count: report.checked, time: format.dateTime(report.checkedAt) })}
            </Text>
            {report.differences.length === 0 && report.missing.length === 0 && report.notInSheet.length === 0 && (
              <Alert.Root status="success" data-testid="reconciliation-clean">
                <Alert.Indicator />
                <Alert.Title>{t('woocommerce.allMatch')}</Alert.Title>
              </Alert.Root>
            )}
            {report.differences.length > 0 && <Differences differences={report.differences} />}
            <MissingLists report={report} />
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Differences({ differences }: { differences: PriceDifference[] }) {
  const { t } = useTexts();
  const fix = useSyncOne({
    onSuccess: (reply) => notify({ title: t('woocommerce.fixed'), description: t('woocommerce.fixedBody', { product: reply.productName }), type: 'success' }),
    onError: (error) => notifyError(t('woocommerce.fixFailed'), error, t('woocommerce.fixFailedDefault')),
  });
  const columns: Column<PriceDifference>[] = [
    { key: 'product', header: t('woocommerce.col.product'), cell: (row) => row.productName, cellProps: { minW: '40', whiteSpace: 'normal', fontWeight: 'medium' } },
    { key: 'sheet', header: t('woocommerce.col.sheetPrice'), cell: (row) => <PriceCell regular={row.sheetRegularPrice} sale={row.sheetSalePrice} /> },
    { key: 'shop', header: t('woocommerce.col.shopPrice'), cell: (row) => <PriceCell regular={row.shopRegularPrice} sale={row.shopSalePrice} /> },
    { key: 'id', header: t('woocommerce.col.woocommerceId'), cell: (row) => row.woocommerceId },
    {
      key: 'fix',
      header: t('woocommerce.col.actions'),
      headerProps: stickyEnd,
      cellProps: stickyEnd,
      cell: (row) => (
        <Button
          size="xs"
          colorPalette="blue"
          onClick={() => fix.mutate(row.productName)}
          loading={fix.isPending && fix.variables === row.productName}
          disabled={fix.isPending}
          aria-label={t('woocommerce.fixProduct', { product: row.productName })}
        >
          {t('woocommerce.fix')}
        </Button>
      ),
    },
  ];
  return (
    <Box>
      <Heading as="h3" size="sm" mb="2">{t('woocommerce.differences', { count: differences.length })}</Heading>
      <DataTable
        columns={columns}
        rows={differences}
        rowKey={(row) => row.productName}
        rowProps={(row) => ({ 'data-product': row.productName })}
        caption={t('woocommerce.differences', { count: differences.length })}
        testId="differences-table"
      />
    </Box>
  );
}

function MissingLists({ report }: { report: ReconciliationReply }) {
  const { t } = useTexts();
  return (
    <>
      {report.missing.length > 0 && (
        <Alert.Root status="warning" data-testid="missing-in-shop">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('woocommerce.missingInShop', { count: report.missing.length })}</Alert.Title>
            <Alert.Description>
              <Text mb="1">{t('woocommerce.missingInShopBody')}</Text>
              <Stack as="ul" gap="0" ps="5" listStyleType="disc">
                {report.missing.map((item) => (
                  <li key={item.productName}>{t('woocommerce.missingItem', { product: item.productName, id: item.woocommerceId })}</li>
                ))}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {report.notInSheet.length > 0 && (
        <Alert.Root status="info" data-testid="not-in-sheet">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('woocommerce.notInSheet', { count: report.notInSheet.length })}</Alert.Title>
            <Alert.Description>
              <Stack as="ul" gap="0" ps="5" listStyleType="disc">
                {report.notInSheet.map((name) => <li key={name}>{name}</li>)}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </>
  );
}
