import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { useTexts } from '../../i18n';
import { lazyPage } from '../../lib/lazy-page';
import type { Section } from '../../shell/navigation';
import { usePriceSummary } from '../sheets/queries';
import { useAnalyticsOverview, useEndpointStats, useHealth, useRequestLog } from './queries';
import { AlertsCard } from './AlertsCard';
import { averageResponseTime } from './request-stats';

// recharts is large (about 100 KB gzip): its code is fetched only once the status cards have their data
// (its texts are the overview's, in by then).
const TimelineChart = lazyPage(() => import('./TimelineChart'));
const MigrationCard = lazyPage(() => import('./MigrationCard'), 'runs');

export default function OverviewSection({ onOpen }: { onOpen: (section: Section) => void }) {
  const { t } = useTexts();
  const status = useStatusQueries();
  return (
    <>
      <PageHeader
        title={t('overview.title')}
        subtitle={t('overview.subtitle')}
        actions={
          <>
            <Button variant="outline" onClick={() => onOpen('docs')}>{t('overview.viewDocs')}</Button>
            <Button colorPalette="blue" onClick={() => onOpen('api-tools')}>{t('overview.newRequest')}</Button>
          </>
        }
      />
      <Stack gap="8">
        <StatusCards status={status} />
        <AlertsCard />
        <Analytics showChart={!status.busy} />
        <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
          <UptimeCard />
          {/* Wide enough for its tables; its code comes once the status cards have their data, like the chart's. */}
          <Box gridColumn={{ lg: 'span 2' }} minW="0">
            {!status.busy && (
              <Suspense fallback={null}>
                <MigrationCard />
              </Suspense>
            )}
          </Box>
        </SimpleGrid>
      </Stack>
    </>
  );
}

/** What the four status cards show; busy until each has its first answer. */
function useStatusQueries() {
  const health = useHealth();
  const requests = useRequestLog();
  const prices = usePriceSummary();
  return { health, requests, prices, busy: health.isPending || requests.isPending || prices.isPending };
}

function StatusCards({ status: { health, requests, prices, busy } }: { status: ReturnType<typeof useStatusQueries> }) {
  const { t, format } = useTexts();
  const log = requests.data?.data ?? [];
  return (
    <SimpleGrid
      columns={{ base: 1, sm: 2, xl: 4 }}
      gap="4"
      data-testid="stat-cards"
      // Busy until every card has its first answer (assistive technology; the first-screen bench waits on it).
      aria-busy={busy}
    >
      <StatCard
        label={t('overview.apiStatus')}
        value={health.isSuccess ? t('overview.online') : t('overview.offline')}
        caption={t('overview.uptimeCaption')}
      />
      {/* The log's own count, not the length of the page of latest entries the log call returns. */}
      <StatCard label={t('overview.totalRequests')} value={format.number(requests.data?.total ?? 0)} caption={t('overview.requestsCaption')} />
      <StatCard label={t('overview.productsSynced')} value={format.number(prices.data?.count ?? 0)} caption={t('overview.productsCaption')} />
      <StatCard label={t('overview.avgResponse')} value={averageResponseTime(log)} caption={t('overview.avgCaption')} />
    </SimpleGrid>
  );
}

function Analytics({ showChart }: { showChart: boolean }) {
  const { t, format } = useTexts();
  const overview = useAnalyticsOverview().data?.data;
  return (
    <Stack gap="4" as="section" aria-labelledby="analytics-title">
      <Heading as="h2" size="lg" id="analytics-title">{t('analytics.title')}</Heading>
      <SimpleGrid columns={{ base: 2, xl: 4 }} gap="4" data-testid="analytics-cards">
        <StatCard label={t('analytics.totalRequests')} value={overview ? format.number(overview.totalRequests) : '—'} />
        <StatCard label={t('analytics.avgResponseTime')} value={overview ? `${format.number(Math.round(overview.avgResponseTime))}ms` : '—'} />
        <StatCard label={t('analytics.uniqueEndpoints')} value={overview ? format.number(overview.uniqueEndpoints) : '—'} />
        <StatCard label={t('analytics.successRate')} value={overview ? `${format.number(Number(overview.successRate.toFixed(1)))}%` : '—'} />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <TopEndpoints />
        <Card.Root size="sm">
          <Card.Header><Heading as="h3" size="md">{t('analytics.timeline')}</Heading></Card.Header>
          <Card.Body minH="64">
            {showChart && (
              <Suspense fallback={null}>
                <TimelineChart />
              </Suspense>
            )}
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
    </Stack>
  );
}

function TopEndpoints() {
  const { t } = useTexts();
  const { data, isError } = useEndpointStats();
  const endpoints = data?.data ?? [];
  return (
    <Card.Root size="sm">
      <Card.Header><Heading as="h3" size="md">{t('analytics.topEndpoints')}</Heading></Card.Header>
      <Card.Body>
        {isError && <Text color="fg.muted">{t('analytics.unavailable')}</Text>}
        {!isError && endpoints.length === 0 && <Text color="fg.muted">{t('analytics.noEndpoints')}</Text>}
        <Stack gap="2" data-testid="top-endpoints">
          {endpoints.map((stat) => (
            <Flex key={`${stat.method} ${stat.endpoint}`} gap="2" align="center" justify="space-between">
              <Flex gap="2" align="center" minW="0">
                <Badge variant="outline">{stat.method}</Badge>
                <Text fontFamily="mono" fontSize="sm" truncate>{stat.endpoint}</Text>
              </Flex>
              <Text fontSize="sm" color="fg.muted" flexShrink="0">
                {t('analytics.calls', { count: stat.count })} · {Math.round(stat.avgResponseTime)}ms
              </Text>
            </Flex>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function UptimeCard() {
  const { t } = useTexts();
  return (
    <Card.Root size="sm">
      <Card.Header><Heading as="h2" size="md">{t('uptime.title')}</Heading></Card.Header>
      <Card.Body>
        <Box>
          <Text fontSize="3xl" fontWeight="bold" color="green.600">{t('uptime.value')}</Text>
          <Text color="fg.muted">{t('uptime.period')}</Text>
          <Text fontSize="sm" color="fg.muted" mt="2">{t('uptime.monitor')}</Text>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}
