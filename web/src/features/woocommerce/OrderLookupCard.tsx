import { Badge, Box, Button, Card, Flex, Heading, Input, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import type { OrderSummary } from './api';
import { orderSearchOf, shopIdOf } from './input';
import { useOrderSearch } from './mutations';
import { shownPrice } from './prices';
import { useOrder } from './queries';

const statusPalette: Record<string, string> = {
  completed: 'green',
  processing: 'blue',
  pending: 'yellow',
  'on-hold': 'orange',
  cancelled: 'gray',
  refunded: 'purple',
  failed: 'red',
};

/** One order by its id, or the orders of a buyer found by billing e-mail or phone. */
export function OrderLookupCard({ connected }: { connected: boolean }) {
  const { t } = useTexts();
  const [idText, setIdText] = useState('');
  const [orderId, setOrderId] = useState<number | null>(null);
  const [contact, setContact] = useState('');
  const [shown, setShown] = useState<'id' | 'search' | null>(null);
  const order = useOrder(orderId);
  const search = useOrderSearch();
  const id = shopIdOf(idText);
  const query = orderSearchOf(contact);

  const findById = () => {
    if (id === null) return;
    setShown('id');
    if (id === orderId) void order.refetch();
    else setOrderId(id);
  };
  const findByContact = () => {
    if (!query) return;
    setShown('search');
    search.mutate(query);
  };

  return (
    <Card.Root size="sm" data-testid="order-lookup">
      <Card.Header>
        <Box>
          <Heading as="h2" size="md">{t('woocommerce.ordersTitle')}</Heading>
          <Text fontSize="sm" color="fg.muted">{t('woocommerce.ordersSubtitle')}</Text>
        </Box>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Form onSubmit={findById} aria-label={t('woocommerce.orderById')}>
              <FormField label={t('woocommerce.orderId')} error={idText.trim() && id === null ? t('woocommerce.idInvalid') : null}>
                <Flex gap="2" w="full">
                  <Input name="orderId" inputMode="numeric" value={idText} onChange={(event) => setIdText(event.target.value)} placeholder="120" />
                  <Button type="submit" variant="outline" disabled={!connected || id === null} loading={shown === 'id' && order.isFetching} flexShrink="0">
                    {t('woocommerce.find')}
                  </Button>
                </Flex>
              </FormField>
            </Form>
            <Form onSubmit={findByContact} aria-label={t('woocommerce.orderByContact')}>
              <FormField label={t('woocommerce.orderContact')} helper={t('woocommerce.orderContactHelper')}>
                <Flex gap="2" w="full">
                  <Input name="contact" value={contact} onChange={(event) => setContact(event.target.value)} placeholder="bat.erdene@example.mn" />
                  <Button type="submit" variant="outline" disabled={!connected || !query} loading={search.isPending} flexShrink="0">
                    {t('woocommerce.search')}
                  </Button>
                </Flex>
              </FormField>
            </Form>
          </SimpleGrid>
          {shown === 'id' && <ById order={order} />}
          {shown === 'search' && <BySearch search={search} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function ById({ order }: { order: ReturnType<typeof useOrder> }) {
  const { t } = useTexts();
  if (order.isFetching && !order.data) return <Searching />;
  if (order.isError) return <ErrorAlert testId="order-error" title={t('woocommerce.orderNotFound')} description={errorText(order.error, order.error.message)} />;
  return order.data ? <OrderView order={order.data.data} /> : null;
}

function BySearch({ search }: { search: ReturnType<typeof useOrderSearch> }) {
  const { t } = useTexts();
  if (search.isPending) return <Searching />;
  if (search.isError) return <ErrorAlert testId="order-error" title={t('woocommerce.orderSearchFailed')} description={errorText(search.error, search.error.message)} />;
  if (!search.data) return null;
  if (search.data.count === 0) return <Text color="fg.muted" data-testid="orders-none">{t('woocommerce.noOrders')}</Text>;
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted">{t('woocommerce.ordersFound', { count: search.data.count })}</Text>
      {search.data.data.map((order) => <OrderView key={order.id} order={order} />)}
    </Stack>
  );
}

function Searching() {
  const { t } = useTexts();
  return <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('woocommerce.searching')}</Text></Flex>;
}

function OrderView({ order }: { order: OrderSummary }) {
  const { t, format } = useTexts();
  const total = order.currency === 'MNT' ? shownPrice(format, order.total) : `${order.total} ${order.currency}`;
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" data-testid="order" data-order-id={order.id}>
      <Flex justify="space-between" gap="3" wrap="wrap" align="center">
        <Flex gap="2" align="center">
          <Heading as="h3" size="sm">{t('woocommerce.orderNumber', { number: order.number })}</Heading>
          <Badge colorPalette={statusPalette[order.status] ?? 'gray'}>{order.status}</Badge>
        </Flex>
        <Text fontWeight="semibold">{total}</Text>
      </Flex>
      <Text fontSize="sm" color="fg.muted" mt="1">{format.dateTime(order.dateCreated)}</Text>
      <Text mt="2">{order.customer.name || '—'}</Text>
      <Text fontSize="sm" color="fg.muted" wordBreak="break-all">{[order.customer.email, order.customer.phone].filter(Boolean).join(' · ')}</Text>
      <Stack as="ul" gap="1" mt="3" ps="0">
        {order.items.map((item, index) => (
          <Flex as="li" key={`${item.productId}-${item.variationId}-${index}`} justify="space-between" gap="3" fontSize="sm" listStyleType="none">
            <Text>
              {item.quantity} × {item.name}
              {item.sku && <Text as="span" color="fg.muted"> ({item.sku})</Text>}
            </Text>
            <Text flexShrink="0">{order.currency === 'MNT' ? shownPrice(format, item.total) : item.total}</Text>
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}
