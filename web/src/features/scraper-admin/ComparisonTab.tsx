import { Badge, Flex, Stack, Text } from '@chakra-ui/react';
import { DataTable, type Column } from '../../components/DataTable';
import { useTexts } from '../../i18n';
import { usd, type ComparisonRow } from './api';
import { useComparison } from './queries';
import { ListState, SectionCard, useLoadFailureToast } from './shared';

/**
 * Document 2 §2.3 Comparison: per game, every marketplace's offer of each product variation, its
 * price in USD and in MNT (as the rate, commission and tiers make it), and its seller; the lowest
 * price of each variation highlighted with a Cheapest badge (a tie marks each).
 */
export function ComparisonTab() {
  const { t, format } = useTexts();
  const comparison = useComparison();
  useLoadFailureToast(comparison, 'scraperAdmin.comparison.fetchFailed');
  const games = comparison.data?.data ?? [];
  const columns: Column<ComparisonRow>[] = [
    {
      key: 'product',
      header: t('scraperAdmin.comparison.product'),
      cellProps: { minW: '48' },
      cell: (row) => (
        <Stack gap="0">
          <Text fontWeight="medium">{row.productName}</Text>
          {row.variationValue && <Text fontSize="sm" color="fg.muted">{row.variationValue}</Text>}
        </Stack>
      ),
    },
    { key: 'marketplace', header: t('scraperAdmin.comparison.marketplace'), cell: (row) => row.marketplaceName },
    {
      key: 'priceUsd',
      header: t('scraperAdmin.comparison.priceUsd'),
      headerProps: { textAlign: 'end' },
      cellProps: { textAlign: 'end', whiteSpace: 'nowrap' },
      cell: (row) => (
        <Flex gap="2" align="center" justify="flex-end">
          {row.cheapest && <Badge colorPalette="green" variant="solid" data-testid="cheapest">{t('scraperAdmin.comparison.cheapest')}</Badge>}
          <Text as="span" fontVariantNumeric="tabular-nums" fontWeight={row.cheapest ? 'semibold' : undefined}>{usd(row.priceUsd)}</Text>
        </Flex>
      ),
    },
    { key: 'priceMnt', header: t('scraperAdmin.comparison.priceMnt'), headerProps: { textAlign: 'end' }, cellProps: { textAlign: 'end', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }, cell: (row) => format.tugrik(row.priceMnt) },
    { key: 'seller', header: t('scraperAdmin.comparison.seller'), cell: (row) => row.sellerName ?? <Text as="span" color="fg.muted">{t('scraperAdmin.none')}</Text> },
  ];
  return (
    <Stack gap="6" data-testid="comparison">
      <Text color="fg.muted" fontSize="sm">{t('scraperAdmin.comparison.subtitle')}</Text>
      <ListState query={comparison} failed={t('scraperAdmin.comparison.fetchFailed')} empty={t('scraperAdmin.comparison.empty')} count={games.length}>
        <Stack gap="6">
          {games.map((game) => (
            <Stack key={game.gameName} gap="0" data-game={game.gameName}>
              <SectionCard title={game.gameName} badge={<Badge>{t('scraperAdmin.comparison.offers', { count: game.rows.length })}</Badge>}>
                <DataTable
                  columns={columns}
                  rows={game.rows}
                  rowKey={(row) => String(row.productId)}
                  rowProps={(row) => ({ 'data-product': String(row.productId), 'data-cheapest': String(row.cheapest), ...(row.cheapest ? { bg: 'green.subtle' } : {}) })}
                  caption={t('scraperAdmin.comparison.caption', { game: game.gameName })}
                  testId="comparison-table"
                  striped={false}
                />
              </SectionCard>
            </Stack>
          ))}
        </Stack>
      </ListState>
    </Stack>
  );
}
