import { Box, Button, Card, Flex, Heading, Input, Link, SimpleGrid, Text } from '@chakra-ui/react';
import { useState, type ChangeEvent } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import type { CreateInvoiceReply } from './api';
import { tugrikOf } from './input';
import { useCreateInvoice } from './mutations';

const blank = { customerName: '', productName: '', amount: '', subscriberId: '', email: '', phone: '' };

/** A custom payment (product name and amount) made at QPay; its payment page link to send the customer. */
export function NewInvoiceCard() {
  const { t, format } = useTexts();
  const [fields, setFields] = useState(blank);
  const [created, setCreated] = useState<CreateInvoiceReply | null>(null);
  const set = (name: keyof typeof blank) => (event: ChangeEvent<HTMLInputElement>) => setFields({ ...fields, [name]: event.target.value });
  const amount = tugrikOf(fields.amount);
  const amountError = fields.amount.trim() !== '' && amount === null ? t('qpay.amountInvalid') : null;
  const valid = fields.customerName.trim() !== '' && fields.productName.trim() !== '' && amount !== null;
  const create = useCreateInvoice({
    onSuccess: (reply) => {
      setCreated(reply);
      setFields(blank);
      notify({ title: t('qpay.invoiceCreated'), description: t('qpay.invoiceCreatedBody', { invoiceId: reply.invoiceId, amount: format.tugrik(reply.invoice.amount) }), type: 'success' });
    },
    onError: (error) => notifyError(t('qpay.error'), error, t('qpay.createFailedDefault')),
  });
  const submit = () => {
    if (!valid || create.isPending) return;
    create.mutate({
      customer_name: fields.customerName.trim(),
      product_name: fields.productName.trim(),
      amount,
      subscriber_id: fields.subscriberId.trim(),
      customer_email: fields.email.trim(),
      customer_phone: fields.phone.trim(),
    });
  };

  return (
    <Card.Root size="sm" data-testid="new-invoice">
      <Card.Header>
        <Heading as="h2" size="md">{t('qpay.newInvoiceTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('qpay.newInvoiceSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label={t('qpay.newInvoiceTitle')} gap="4">
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
            <FormField label={t('qpay.customerName')} required>
              <Input name="customerName" value={fields.customerName} onChange={set('customerName')} maxLength={255} />
            </FormField>
            <FormField label={t('qpay.productName')} required>
              <Input name="productName" value={fields.productName} onChange={set('productName')} maxLength={255} placeholder="PUBG Mobile 660 UC" />
            </FormField>
            <FormField label={t('qpay.amount')} required error={amountError}>
              <Input name="amount" inputMode="numeric" value={fields.amount} onChange={set('amount')} placeholder="35000" />
            </FormField>
            <FormField label={t('qpay.subscriberId')}>
              <Input name="subscriberId" inputMode="numeric" value={fields.subscriberId} onChange={set('subscriberId')} maxLength={64} />
            </FormField>
            <FormField label={t('qpay.customerEmail')}>
              <Input name="customerEmail" type="email" value={fields.email} onChange={set('email')} maxLength={120} />
            </FormField>
            <FormField label={t('qpay.customerPhone')}>
              <Input name="customerPhone" type="tel" value={fields.phone} onChange={set('phone')} maxLength={40} />
            </FormField>
          </SimpleGrid>
          <Box>
            <Button type="submit" colorPalette="blue" disabled={!valid} loading={create.isPending} loadingText={t('qpay.creating')}>{t('qpay.create')}</Button>
          </Box>
        </Form>
        {created && (
          <Box mt="4" p="3" borderWidth="1px" borderRadius="md" bg="bg.subtle" data-testid="created-invoice">
            <Text fontSize="sm" fontWeight="semibold">{t('qpay.paymentLink')}</Text>
            <Flex gap="2" align="center" wrap="wrap" mt="1">
              <Link href={created.paymentUrl} target="_blank" rel="noreferrer" fontFamily="mono" fontSize="sm" wordBreak="break-all" colorPalette="blue" color="colorPalette.fg" flex="1" data-testid="created-invoice-link">
                {created.paymentUrl}
              </Link>
              <CopyButton value={created.paymentUrl} what={t('qpay.paymentLink')} flexShrink="0" />
            </Flex>
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}
