import { Alert, Badge, Box, Button, Card, Flex, Heading, Input, Link, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { ServiceCode, StreamingInvoiceView } from './api';
import { MonthsSelect, ServiceSelect, useFailureToast } from './fields';
import { useAssignKey, useCreateInvoice } from './mutations';
import { useAttentionInvoices } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

/** Paid orders waiting for a key (NEEDS_ATTENTION, ADR 14), each with its reason and Assign key. */
export function AttentionInvoices() {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const invoices = useAttentionInvoices();
  useLoadFailureToast(invoices, t('streamingKeys.attentionFetchFailed'));
  const assign = useAssignKey({
    onSuccess: (reply) => notify({ title: t('streamingKeys.assigned'), description: t('streamingKeys.assignedBody', { key: reply.data.key.key, id: reply.data.invoice.invoiceId ?? reply.data.invoice.id }), type: 'success' }),
    onError: failed('streamingKeys.assignFailed'),
  });
  const rows = invoices.data?.data ?? [];
  return (
    <Card.Root size="sm" data-testid="attention-invoices">
      <Card.Header>
        <Flex gap="2" align="center" justify="space-between" wrap="wrap">
          <Box>
            <Flex gap="2" align="center">
              <Heading as="h2" size="md">{t('streamingKeys.attentionTitle')}</Heading>
              {invoices.isSuccess && <Badge colorPalette={rows.length ? 'orange' : 'gray'}>{format.number(rows.length)}</Badge>}
            </Flex>
            <Text fontSize="sm" color="fg.muted">{t('streamingKeys.attentionSubtitle')}</Text>
          </Box>
          <Button size="xs" variant="outline" onClick={() => void invoices.refetch()} loading={invoices.isFetching} loadingText={t('streamingKeys.refreshing')}>{t('streamingKeys.refresh')}</Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {invoices.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('streamingKeys.loading')}</Text></Flex>}
        {invoices.isError && <ErrorAlert title={t('streamingKeys.attentionFetchFailed')} description={errorText(invoices.error, invoices.error.message)} />}
        {invoices.isSuccess && rows.length === 0 && <Text color="fg.muted">{t('streamingKeys.attentionEmpty')}</Text>}
        <Stack as="ul" listStyleType="none" gap="3">
          {rows.map((invoice) => (
            <Box as="li" key={invoice.id} borderWidth="2px" borderColor="border.warning" borderRadius="md" p="3" data-invoice={invoice.invoiceId ?? invoice.id}>
              <Stack gap="2">
                <Flex gap="2" justify="space-between" wrap="wrap">
                  <Text fontWeight="semibold">{t('streamingKeys.orderOf', { service: invoice.serviceName, months: t('streamingKeys.monthCount', { count: invoice.duration }) })}</Text>
                  <Text fontWeight="bold">{format.tugrik(invoice.amount)}</Text>
                </Flex>
                <Text fontSize="sm" fontFamily="mono">{invoice.invoiceId ?? `#${invoice.id}`}</Text>
                <Text fontSize="sm">{[invoice.customerName, invoice.email, invoice.phoneNumber].filter(Boolean).join(' · ')}</Text>
                {invoice.paidAt && <Text fontSize="xs" color="fg.muted">{t('streamingKeys.paidAt', { time: format.dateTime(invoice.paidAt) })}</Text>}
                {invoice.attentionReason && <Text fontSize="sm" color="fg.warning">{invoice.attentionReason}</Text>}
                <Button
                  size="xs"
                  colorPalette="green"
                  alignSelf="flex-start"
                  onClick={() => assign.mutate(invoice.id)}
                  loading={assign.isPending && assign.variables === invoice.id}
                  aria-label={t('streamingKeys.assignKeyOf', { id: invoice.invoiceId ?? invoice.id })}
                >
                  {/* Paid below its price (issue 18): the press is the admin's approval. */}
                  {invoice.attentionKind === 'price_check' ? t('streamingKeys.approveAssignKey') : t('streamingKeys.assignKey')}
                </Button>
              </Stack>
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

interface InvoiceForm {
  email: string;
  service: ServiceCode | '';
  duration: string;
  amount: string;
  customerName: string;
  phoneNumber: string;
  subscriberId: string;
}
const emptyInvoice: InvoiceForm = { email: '', service: '', duration: '1', amount: '', customerName: '', phoneNumber: '', subscriberId: '' };

/** A streaming order and its QPay invoice (made through payments); the result shows its payment link. */
export function CreateInvoiceCard() {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [form, setForm] = useState(emptyInvoice);
  const [created, setCreated] = useState<StreamingInvoiceView | null>(null);
  const update = (change: Partial<InvoiceForm>) => setForm((current) => ({ ...current, ...change }));
  const create = useCreateInvoice({
    onSuccess: (reply) => {
      setCreated(reply.data);
      notify({ title: t('streamingKeys.invoiceCreated'), description: t('streamingKeys.invoiceCreatedBody', { invoiceId: reply.data.invoiceId ?? reply.data.id, amount: format.tugrik(reply.data.amount) }), type: 'success' });
    },
    onError: failed('streamingKeys.invoiceFailed'),
  });
  // The server validates and names the field; blank optional fields are left out.
  const submit = () => {
    if (create.isPending) return;
    const { service, ...rest } = form;
    create.mutate({ ...(Object.fromEntries(Object.entries(rest).filter(([, value]) => value.trim() !== '')) as Omit<InvoiceForm, 'service'>), service: service as ServiceCode });
  };
  return (
    <Card.Root size="sm" data-testid="create-invoice">
      <Card.Header>
        <Heading as="h2" size="md">{t('streamingKeys.invoiceTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('streamingKeys.invoiceSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label={t('streamingKeys.invoiceTitle')} gap="4">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            <FormField label={t('streamingKeys.buyerEmail')} required>
              <Input name="email" type="email" value={form.email} onChange={(event) => update({ email: event.target.value })} maxLength={120} autoComplete="off" />
            </FormField>
            <ServiceSelect required value={form.service} onChange={(service) => update({ service })} />
            <MonthsSelect name="duration" label={t('streamingKeys.duration')} value={form.duration} onChange={(duration) => update({ duration })} />
            <FormField label={t('streamingKeys.amount')} helper={t('streamingKeys.amountHelper')}>
              <Input name="amount" inputMode="numeric" value={form.amount} onChange={(event) => update({ amount: event.target.value })} autoComplete="off" />
            </FormField>
            <FormField label={t('streamingKeys.customerName')}>
              <Input name="customerName" value={form.customerName} onChange={(event) => update({ customerName: event.target.value })} maxLength={255} autoComplete="off" />
            </FormField>
            <FormField label={t('streamingKeys.phone')}>
              <Input name="phoneNumber" type="tel" value={form.phoneNumber} onChange={(event) => update({ phoneNumber: event.target.value })} maxLength={40} autoComplete="off" />
            </FormField>
            <FormField label={t('streamingKeys.subscriberId')}>
              <Input name="subscriberId" inputMode="numeric" value={form.subscriberId} onChange={(event) => update({ subscriberId: event.target.value })} maxLength={64} autoComplete="off" />
            </FormField>
          </SimpleGrid>
          <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={create.isPending}>{t('streamingKeys.createInvoice')}</Button>
        </Form>
        {created && <CreatedInvoice invoice={created} />}
      </Card.Body>
    </Card.Root>
  );
}

function CreatedInvoice({ invoice }: { invoice: StreamingInvoiceView }) {
  const { t, format } = useTexts();
  if (!invoice.paymentUrl) {
    return (
      <Alert.Root status="error" mt="4" data-testid="invoice-result">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('streamingKeys.invoiceNotMade')}</Alert.Title>
          {invoice.attentionReason && <Alert.Description>{invoice.attentionReason}</Alert.Description>}
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status="success" mt="4" data-testid="invoice-result">
      <Alert.Indicator />
      <Alert.Content minW="0">
        <Alert.Title>{t('streamingKeys.invoiceCreatedBody', { invoiceId: invoice.invoiceId ?? invoice.id, amount: format.tugrik(invoice.amount) })}</Alert.Title>
        <Alert.Description>
          <Flex gap="2" align="center" wrap="wrap" mt="1">
            <Text>{t('streamingKeys.paymentLink')}:</Text>
            <Link href={invoice.paymentUrl} target="_blank" rel="noreferrer" wordBreak="break-all" colorPalette="blue" color="colorPalette.fg">{invoice.paymentUrl}</Link>
            <CopyButton value={invoice.paymentUrl} what={t('streamingKeys.paymentLink')} />
          </Flex>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
