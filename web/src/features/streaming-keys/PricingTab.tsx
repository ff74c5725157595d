import { Button, Card, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { serviceNames, type StreamingPricingRow } from './api';
import { ServiceSelect, useFailureToast } from './fields';
import { inlinePrice, priceRequest, type PriceForm } from './forms';
import { useCreatePrice, useDeletePrice, useUpdatePrice } from './mutations';
import { usePricing } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

/** Document 3 §2's Pricing tab: service, name, months and ₮ price; inline edit, delete and Add New Price. */
export function PricingTab() {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const pricing = usePricing();
  useLoadFailureToast(pricing, t('streamingKeys.pricingFetchFailed'));
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const [deleting, setDeleting] = useState<StreamingPricingRow | null>(null);
  const [adding, setAdding] = useState(false);
  const months = (row: StreamingPricingRow) => t('streamingKeys.monthCount', { count: row.duration });

  const update = useUpdatePrice({
    onSuccess: (reply) => {
      setEditing(null);
      notify({ title: t('streamingKeys.priceSaved'), description: t('streamingKeys.priceSavedBody', { service: reply.data.serviceName, months: months(reply.data), price: format.tugrik(reply.data.price) }), type: 'success' });
    },
    onError: failed('streamingKeys.updatePriceFailed'),
  });
  const remove = useDeletePrice({
    onSuccess: () => {
      setDeleting(null);
      notify({ title: t('streamingKeys.priceDeleted'), type: 'success' });
    },
    onError: (error) => {
      setDeleting(null);
      failed('streamingKeys.deletePriceFailed')(error);
    },
  });

  const priceCell = (row: StreamingPricingRow) => {
    if (editing?.id !== row.id) return format.tugrik(row.price);
    const price = inlinePrice(editing.text);
    return (
      <Form onSubmit={() => price !== null && update.mutate({ id: row.id, price })}>
        <Flex gap="1" align="center">
          <Input
            size="sm"
            w="28"
            inputMode="numeric"
            name="price"
            value={editing.text}
            onChange={(event) => setEditing({ id: row.id, text: event.target.value })}
            aria-label={t('streamingKeys.newPrice', { service: row.serviceName, months: months(row) })}
            autoFocus
          />
          <Button size="xs" type="submit" colorPalette="blue" disabled={price === null} loading={update.isPending}>{t('common.save')}</Button>
          <Button size="xs" variant="outline" onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
        </Flex>
      </Form>
    );
  };
  const columns: Column<StreamingPricingRow>[] = [
    { key: 'service', header: t('streamingKeys.col.service'), cell: (row) => row.service },
    { key: 'serviceName', header: t('streamingKeys.col.serviceName'), cell: (row) => row.serviceName },
    { key: 'duration', header: t('streamingKeys.col.duration'), cell: months },
    { key: 'price', header: t('streamingKeys.col.price'), cell: priceCell, cellProps: { textAlign: 'end' }, headerProps: { textAlign: 'end' } },
    {
      key: 'actions',
      header: t('streamingKeys.col.actions'),
      cell: (row) => (
        <Flex gap="1">
          <Button size="xs" variant="outline" onClick={() => setEditing({ id: row.id, text: String(row.price) })} aria-label={t('streamingKeys.editPriceOf', { service: row.serviceName, months: months(row) })}>{t('streamingKeys.edit')}</Button>
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(row)} aria-label={t('streamingKeys.deletePriceOf', { service: row.serviceName, months: months(row) })}>{t('streamingKeys.delete')}</Button>
        </Flex>
      ),
    },
  ];
  const rows = pricing.data?.data ?? [];

  return (
    <Card.Root size="sm" data-testid="pricing">
      <Card.Header>
        <Flex gap="2" align="center" justify="space-between" wrap="wrap">
          <Stack gap="0">
            <Heading as="h2" size="md">{t('streamingKeys.pricingTitle')}</Heading>
            <Text fontSize="sm" color="fg.muted">{t('streamingKeys.pricingSubtitle')}</Text>
          </Stack>
          <Button colorPalette="blue" onClick={() => setAdding(true)}>{t('streamingKeys.addPrice')}</Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {pricing.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('streamingKeys.loading')}</Text></Flex>}
        {pricing.isError && <ErrorAlert title={t('streamingKeys.pricingFetchFailed')} description={errorText(pricing.error, pricing.error.message)} />}
        {pricing.isSuccess && rows.length === 0 && <Text color="fg.muted">{t('streamingKeys.pricingEmpty')}</Text>}
        {rows.length > 0 && (
          <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-price': `${row.service}-${row.duration}` })} caption={t('streamingKeys.pricingTitle')} testId="pricing-table" />
        )}
      </Card.Body>
      {adding && <AddPriceDialog onClose={() => setAdding(false)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('streamingKeys.deletePriceTitle')}
        message={deleting && t('streamingKeys.deletePriceMessage', { service: deleting.serviceName, months: months(deleting), price: format.tugrik(deleting.price) })}
        confirmLabel={t('streamingKeys.delete')}
        destructive
        busy={remove.isPending}
        onConfirm={() => deleting && !remove.isPending && remove.mutate(deleting.id)}
        onCancel={() => !remove.isPending && setDeleting(null)}
      />
    </Card.Root>
  );
}

/** Document 3 §5: service, service name (filled in from the service), duration 1–12 and price ≥ 0, each with its message. */
function AddPriceDialog({ onClose }: { onClose: () => void }) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [form, setForm] = useState<PriceForm>({ service: '', serviceName: '', duration: '1', price: '' });
  const [problems, setProblems] = useState<Partial<Record<keyof PriceForm, string>>>({});
  const update = (change: Partial<PriceForm>) => setForm((current) => ({ ...current, ...change }));
  const create = useCreatePrice({
    onSuccess: (reply) => {
      notify({ title: t('streamingKeys.priceAdded'), description: t('streamingKeys.priceSavedBody', { service: reply.data.serviceName, months: t('streamingKeys.monthCount', { count: reply.data.duration }), price: format.tugrik(reply.data.price) }), type: 'success' });
      onClose();
    },
    onError: failed('streamingKeys.createPriceFailed'),
  });
  const submit = () => {
    const request = priceRequest(form);
    if ('problems' in request) {
      return setProblems(Object.fromEntries(Object.entries(request.problems).map(([field, key]) => [field, t(key)])));
    }
    setProblems({});
    create.mutate(request);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.addPrice')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="add-price" loading={create.isPending}>{t('common.save')}</Button>
        </>
      }
    >
      <Form id="add-price" onSubmit={submit} gap="4">
        <ServiceSelect value={form.service} error={problems.service} onChange={(service) => update({ service, serviceName: service ? serviceNames[service] : form.serviceName })} />
        <FormField label={t('streamingKeys.serviceName')} error={problems.serviceName}>
          <Input name="serviceName" value={form.serviceName} onChange={(event) => update({ serviceName: event.target.value })} maxLength={100} autoComplete="off" />
        </FormField>
        <FormField label={t('streamingKeys.duration')} error={problems.duration}>
          <Input name="duration" type="number" inputMode="numeric" value={form.duration} onChange={(event) => update({ duration: event.target.value })} />
        </FormField>
        <FormField label={t('streamingKeys.price')} error={problems.price}>
          <Input name="price" type="number" inputMode="numeric" value={form.price} onChange={(event) => update({ price: event.target.value })} />
        </FormField>
      </Form>
    </Dialog>
  );
}
