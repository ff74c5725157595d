import { Badge, Box, Button, Card, Flex, Heading, Input, Link as ExternalLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import type { ProductMapping } from './api';
import { shopIdOf } from './input';
import { useAddMapping, useDeleteMapping } from './mutations';
import { PriceCell } from './PriceCell';
import { useMappings } from './queries';
import { stickyEnd } from './sticky';

/** Sheet product names mapped to shop products or variations: the table, its delete, and the manual add form. */
export function MappingsCard() {
  const { t, format } = useTexts();
  const mappings = useMappings();
  const rows = mappings.data?.data ?? [];
  const [deleting, setDeleting] = useState<ProductMapping | null>(null);
  const remove = useDeleteMapping({
    onSuccess: (_reply, productName) => {
      setDeleting(null);
      notify({ title: t('woocommerce.mappingDeleted'), description: t('woocommerce.mappingDeletedBody', { product: productName }), type: 'success' });
    },
    onError: (error) => {
      setDeleting(null);
      notifyError(t('woocommerce.deleteFailed'), error, t('woocommerce.deleteFailedDefault'));
    },
  });

  const columns: Column<ProductMapping>[] = [
    { key: 'product', header: t('woocommerce.col.product'), cell: (row) => row.productName, cellProps: { minW: '48', whiteSpace: 'normal', fontWeight: 'medium' } },
    {
      key: 'woocommerceId',
      header: t('woocommerce.col.woocommerceId'),
      cell: (row) => (
        <Stack gap="0">
          {row.permalink ? (
            <ExternalLink href={row.permalink} target="_blank" rel="noreferrer" colorPalette="blue" color="colorPalette.fg">{row.woocommerceId}</ExternalLink>
          ) : (
            <Text>{row.woocommerceId}</Text>
          )}
          {row.parentId !== null && <Text fontSize="xs" color="fg.muted">{t('woocommerce.variationOf', { id: row.parentId })}</Text>}
        </Stack>
      ),
    },
    {
      key: 'lastSynced',
      header: t('woocommerce.col.lastSynced'),
      cell: (row) => (row.lastSynced ? format.dateTime(row.lastSynced) : <Text as="span" color="fg.muted">{t('woocommerce.neverSynced')}</Text>),
    },
    {
      key: 'lastSyncedPrice',
      header: t('woocommerce.col.lastSyncedPrice'),
      cell: (row) => <PriceCell regular={row.lastSyncedRegularPrice ?? row.lastSyncedPrice} sale={row.lastSyncedSalePrice} />,
    },
    {
      key: 'mappedBy',
      header: t('woocommerce.col.mappedBy'),
      cell: (row) => (
        <Badge colorPalette={row.mappedBy === 'manual' ? 'purple' : 'gray'}>
          {row.mappedBy === 'manual' ? t('woocommerce.mappedBy.manual') : t('woocommerce.mappedBy.auto')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('woocommerce.col.actions'),
      headerProps: stickyEnd,
      cellProps: stickyEnd,
      cell: (row) => (
        <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(row)} aria-label={t('woocommerce.deleteMapping', { product: row.productName })}>
          {t('woocommerce.delete')}
        </Button>
      ),
    },
  ];

  return (
    <Card.Root size="sm" data-testid="mappings">
      <Card.Header>
        <Box>
          <Flex gap="2" align="center" wrap="wrap">
            <Heading as="h2" size="md">{t('woocommerce.mappingsTitle')}</Heading>
            {mappings.isSuccess && <Badge data-testid="mapping-count">{format.number(rows.length)}</Badge>}
          </Flex>
          <Text fontSize="sm" color="fg.muted">{t('woocommerce.mappingsSubtitle')}</Text>
        </Box>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          <AddMappingForm />
          <Box>
            {mappings.isPending && (
              <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('woocommerce.mappingsLoading')}</Text></Flex>
            )}
            {mappings.isError && <ErrorAlert testId="mappings-error" title={t('woocommerce.mappingsError')} description={mappings.error.message} />}
            {mappings.isSuccess && rows.length === 0 && <Text color="fg.muted">{t('woocommerce.mappingsEmpty')}</Text>}
            {rows.length > 0 && (
              <DataTable
                columns={columns}
                rows={rows}
                rowKey={(row) => row.productName}
                rowProps={(row) => ({ 'data-product': row.productName })}
                caption={t('woocommerce.mappingsTitle')}
                testId="mappings-table"
              />
            )}
          </Box>
        </Stack>
      </Card.Body>
      <ConfirmDialog
        open={deleting !== null}
        title={t('woocommerce.deleteTitle')}
        message={deleting && t('woocommerce.deleteMessage', { product: deleting.productName, id: deleting.woocommerceId })}
        confirmLabel={t('woocommerce.delete')}
        destructive
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.productName)}
        onCancel={() => !remove.isPending && setDeleting(null)}
      />
    </Card.Root>
  );
}

/** Document 1, section 5: Save needs a product name and a numeric id. */
function AddMappingForm() {
  const { t } = useTexts();
  const [productName, setProductName] = useState('');
  const [idText, setIdText] = useState('');
  const id = shopIdOf(idText);
  const idError = idText.trim() !== '' && id === null ? t('woocommerce.idInvalid') : null;
  const valid = productName.trim() !== '' && id !== null;
  const add = useAddMapping({
    onSuccess: (reply) => {
      setProductName('');
      setIdText('');
      notify({
        title: reply.replaced ? t('woocommerce.mappingReplaced') : t('woocommerce.mappingAdded'),
        description: t('woocommerce.mappingAddedBody', { product: reply.data.productName, id: reply.data.woocommerceId }),
        type: 'success',
      });
    },
    onError: (error) => notifyError(t('woocommerce.addFailed'), error, t('woocommerce.addFailedDefault')),
  });
  const save = () => {
    if (valid && !add.isPending) add.mutate({ productName: productName.trim(), woocommerceId: id });
  };

  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.subtle">
      <Heading as="h3" size="sm" mb="3">{t('woocommerce.addTitle')}</Heading>
      <Form onSubmit={save} aria-label={t('woocommerce.addTitle')} data-testid="add-mapping">
        <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ md: 'flex-start' }}>
          <Box flex="2">
            <FormField label={t('woocommerce.productName')} helper={t('woocommerce.productNameHelper')} required>
              <Input name="productName" bg="bg" value={productName} onChange={(event) => setProductName(event.target.value)} placeholder={t('woocommerce.productNamePlaceholder')} maxLength={200} />
            </FormField>
          </Box>
          <Box flex="1">
            <FormField label={t('woocommerce.woocommerceId')} required error={idError}>
              <Input name="woocommerceId" bg="bg" inputMode="numeric" value={idText} onChange={(event) => setIdText(event.target.value)} placeholder="102" />
            </FormField>
          </Box>
          <Button type="submit" colorPalette="blue" disabled={!valid} loading={add.isPending} mt={{ md: '6' }} alignSelf={{ base: 'flex-start' }}>
            {t('common.save')}
          </Button>
        </Flex>
      </Form>
    </Box>
  );
}
