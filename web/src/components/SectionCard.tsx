import { Button, Card, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTexts } from '../i18n';
import { errorText } from '../lib/api';
import { ErrorAlert } from './ErrorAlert';

/** One card of an admin page: its h2, a line about it, buttons on the right, and its body. `id` also anchors the page's jump links. */
export function SectionCard({ title, subtitle, actions, badge, id, testId, children }: {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
  badge?: ReactNode;
  id?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Card.Root size="sm" id={id} data-testid={testId ?? id} scrollMarginTop={id ? '20' : undefined} minW="0">
      <Card.Header>
        <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap="1" flex="1" minW="56">
            <Flex gap="2" align="center" wrap="wrap">
              <Heading as="h2" size="md">{title}</Heading>
              {badge}
            </Flex>
            {subtitle && <Text fontSize="sm" color="fg.muted">{subtitle}</Text>}
          </Stack>
          {actions && <Flex gap="2" wrap="wrap">{actions}</Flex>}
        </Flex>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/**
 * A list's loading, failed and empty states; the rows (children) once there are some. A failed
 * load says so in the card with the server's words and a way to ask again.
 */
export function ListState({ query, failed, empty, count, children }: { query: UseQueryResult<unknown>; failed: string; empty: string; count: number; children: ReactNode }) {
  const { t } = useTexts();
  if (query.isPending) return <Loading />;
  return (
    <Stack gap="3">
      {query.isError && (
        <ErrorAlert
          title={failed}
          description={
            <>
              {errorText(query.error, query.error.message)}{' '}
              <Button size="xs" variant="outline" onClick={() => void query.refetch()} loading={query.isFetching}>{t('app.retry')}</Button>
            </>
          }
        />
      )}
      {query.isSuccess && count === 0 && <Text color="fg.muted" data-testid="empty">{empty}</Text>}
      {count > 0 && children}
    </Stack>
  );
}

export function Loading() {
  const { t } = useTexts();
  return (
    <Flex gap="3" align="center" role="status">
      <Spinner size="sm" />
      <Text>{t('app.loading')}</Text>
    </Flex>
  );
}
