import { Badge, Box, Button, Card, Flex, Heading, Spinner, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { useLoadFailureToast } from './load-failure';

interface ListCardProps {
  title: string;
  subtitle?: string;
  query: UseQueryResult<{ data: unknown[] }>;
  loading: string;
  /** Document 3 §8: 'Failed to fetch ...' on list loads; the server's message under it. */
  failed: string;
  empty: string;
  testId: string;
  children: ReactNode;
}

/** One list of the page: its title and count, a Refresh, and its loading, failed and empty states. */
export function ListCard({ title, subtitle, query, loading, failed, empty, testId, children }: ListCardProps) {
  const { t, format } = useTexts();
  const rows = query.data?.data ?? [];
  useLoadFailureToast(query, failed);
  return (
    <Card.Root size="sm" data-testid={testId}>
      <Card.Header>
        <Flex gap="2" align="center" justify="space-between" wrap="wrap">
          <Box>
            <Flex gap="2" align="center">
              <Heading as="h2" size="md">{title}</Heading>
              {query.isSuccess && <Badge data-testid={`${testId}-count`}>{format.number(rows.length)}</Badge>}
            </Flex>
            {subtitle && <Text fontSize="sm" color="fg.muted">{subtitle}</Text>}
          </Box>
          <Button size="xs" variant="outline" onClick={() => void query.refetch()} loading={query.isFetching} loadingText={t('qpay.refreshing')}>
            {t('qpay.refresh')}
          </Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {query.isPending && (
          <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{loading}</Text></Flex>
        )}
        {query.isError && <ErrorAlert testId={`${testId}-error`} title={failed} description={errorText(query.error, query.error.message)} mb={rows.length ? '3' : undefined} />}
        {query.isSuccess && rows.length === 0 && <Text color="fg.muted">{empty}</Text>}
        {rows.length > 0 && children}
      </Card.Body>
    </Card.Root>
  );
}
