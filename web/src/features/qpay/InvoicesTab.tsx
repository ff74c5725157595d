import { Alert, Box, Button, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog } from '../../components/Dialog';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import { InvoiceStatusBadge } from '../payment/InvoiceStatusBadge';
import { qpayPaths, type InvoiceRecord } from './api';
import { ListCard } from './ListCard';
import { NewInvoiceCard } from './NewInvoiceCard';
import { useApproveInvoice, useDeleteInvoice, useRecheckInvoice } from './mutations';
import { usePendingInvoices, useRecentInvoices } from './queries';

/** Document 3 §2: the pending invoices an admin acts on, and the newest invoices whatever their status; a custom payment's invoice made here. */
export function InvoicesTab() {
  return (
    <Stack gap="6">
      <PendingInvoices />
      <RecentInvoices />
      {/* The least frequent task last: the lists an admin acts on come first, above the fold on a phone. */}
      <NewInvoiceCard />
    </Stack>
  );
}

type Confirming = { action: 'approve' | 'delete'; invoice: InvoiceRecord } | null;

function PendingInvoices() {
  const { t, format } = useTexts();
  const pending = usePendingInvoices();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const approve = useApproveInvoice({
    onSuccess: (reply) => {
      setConfirming(null);
      notify({ title: t('qpay.approved'), description: t('qpay.approvedBody', { invoiceId: reply.invoice.invoiceId }), type: 'success' });
    },
    onError: (error) => {
      setConfirming(null);
      notifyError(t('qpay.approvalFailed'), error, t('qpay.approvalFailedDefault'));
    },
  });
  const remove = useDeleteInvoice({
    onSuccess: (_reply, invoiceId) => {
      setConfirming(null);
      notify({ title: t('qpay.deleted'), description: t('qpay.deletedBody', { invoiceId }), type: 'success' });
    },
    onError: (error) => {
      setConfirming(null);
      notifyError(t('qpay.deleteFailed'), error, t('qpay.deleteFailedDefault'));
    },
  });
  const recheck = useRecheckInvoice({
    onSuccess: (reply) => notify({ title: t('qpay.recheckDone', { invoiceId: reply.invoice.invoiceId }), description: reply.message, type: reply.invoice.status === 'paid' ? 'success' : 'info' }),
    onError: (error) => notifyError(t('qpay.recheckFailed'), error, t('qpay.recheckFailedDefault')),
  });
  const busy = approve.isPending || remove.isPending;
  const target = confirming?.invoice;

  return (
    <>
    <ListCard
      title={t('qpay.pendingTitle')}
      subtitle={t('qpay.pendingSubtitle')}
      query={pending}
      loading={t('qpay.pendingLoading')}
      failed={t('qpay.pendingFetchFailed')}
      empty={t('qpay.pendingEmpty')}
      testId="pending-invoices"
    >
      <Stack gap="3" as="ul" listStyleType="none">
        {(pending.data?.data ?? []).map((invoice) => (
          <PendingInvoice
            key={invoice.invoiceId}
            invoice={invoice}
            onApprove={() => setConfirming({ action: 'approve', invoice })}
            onDelete={() => setConfirming({ action: 'delete', invoice })}
            onRecheck={() => recheck.mutate(invoice.invoiceId)}
            rechecking={recheck.isPending && recheck.variables === invoice.invoiceId}
          />
        ))}
      </Stack>
    </ListCard>
    <ConfirmDialog
        open={confirming !== null}
        title={confirming?.action === 'delete' ? t('qpay.deleteTitle') : t('qpay.approveTitle')}
        message={target && t(confirming?.action === 'delete' ? 'qpay.deleteMessage' : 'qpay.approveMessage', { invoiceId: target.invoiceId, description: target.description, amount: format.tugrik(target.amount) })}
        confirmLabel={confirming?.action === 'delete' ? t('qpay.delete') : t('qpay.approve')}
        destructive={confirming?.action === 'delete'}
        busy={busy}
        onConfirm={() => {
          if (!confirming || busy) return;
          if (confirming.action === 'approve') approve.mutate(confirming.invoice.invoiceId);
          else remove.mutate(confirming.invoice.invoiceId);
        }}
        onCancel={() => !busy && setConfirming(null)}
      />
    </>
  );
}

interface PendingInvoiceProps {
  invoice: InvoiceRecord;
  onApprove: () => void;
  onDelete: () => void;
  onRecheck: () => void;
  rechecking: boolean;
}

/** One pending invoice: a flag first and in colour (an admin must look), then what, who and when, then the actions. */
function PendingInvoice({ invoice, onApprove, onDelete, onRecheck, rechecking }: PendingInvoiceProps) {
  const { t, format } = useTexts();
  const payer = [invoice.payer.name, invoice.payer.email, invoice.payer.phone].filter(Boolean).join(' · ');
  return (
    <Box
      as="li"
      borderWidth={invoice.flag ? '2px' : '1px'}
      borderColor={invoice.flag ? 'border.warning' : undefined}
      borderRadius="md"
      p="3"
      bg="bg"
      data-invoice={invoice.invoiceId}
      data-flagged={invoice.flag ? 'true' : undefined}
    >
      <Stack gap="2">
        {invoice.flag && (
          <Alert.Root status="warning" size="sm" data-testid="invoice-flag">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('qpay.flagTitle')}</Alert.Title>
              <Alert.Description>{invoice.flag}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Flex gap="2" justify="space-between" align="flex-start" wrap="wrap">
          <Box minW="0">
            <Text fontWeight="semibold">{invoice.description}</Text>
            <Link href={qpayPaths.paymentPage(invoice.invoiceId)} target="_blank" rel="noreferrer" fontFamily="mono" fontSize="sm" colorPalette="blue" color="colorPalette.fg">
              {invoice.invoiceId}
            </Link>
          </Box>
          <Flex gap="2" align="center">
            <Text fontWeight="bold">{format.tugrik(invoice.amount)}</Text>
            <InvoiceStatusBadge status={invoice.status} />
          </Flex>
        </Flex>
        {payer && <Text fontSize="sm">{payer}</Text>}
        <Text fontSize="xs" color="fg.muted">
          {t('qpay.createdExpires', { created: format.dateTime(invoice.createdAt), expires: format.dateTime(invoice.expiresAt) })}
          {invoice.lastCheckedAt && ` · ${t('qpay.lastChecked', { time: format.dateTime(invoice.lastCheckedAt) })}`}
        </Text>
        <Flex gap="2" wrap="wrap">
          <Button size="xs" colorPalette="green" onClick={onApprove} aria-label={t('qpay.approveInvoice', { invoiceId: invoice.invoiceId })}>{t('qpay.approve')}</Button>
          <Button size="xs" variant="outline" onClick={onRecheck} loading={rechecking} aria-label={t('qpay.recheckInvoice', { invoiceId: invoice.invoiceId })}>{t('qpay.recheck')}</Button>
          <Button size="xs" variant="outline" colorPalette="red" onClick={onDelete} aria-label={t('qpay.deleteInvoice', { invoiceId: invoice.invoiceId })}>{t('qpay.delete')}</Button>
        </Flex>
      </Stack>
    </Box>
  );
}

function RecentInvoices() {
  const { t, format } = useTexts();
  const recent = useRecentInvoices();
  const columns: Column<InvoiceRecord>[] = [
    {
      key: 'invoice',
      header: t('qpay.col.invoice'),
      cell: (row) => (
        <Stack gap="0">
          <Link href={qpayPaths.paymentPage(row.invoiceId)} target="_blank" rel="noreferrer" fontFamily="mono" colorPalette="blue" color="colorPalette.fg">{row.invoiceId}</Link>
          <Text fontSize="xs" color="fg.muted">{row.description}</Text>
        </Stack>
      ),
      cellProps: { minW: '44', whiteSpace: 'normal' },
    },
    { key: 'status', header: t('qpay.col.status'), cell: (row) => <InvoiceStatusBadge status={row.status} /> },
    { key: 'amount', header: t('qpay.col.amount'), cell: (row) => format.tugrik(row.amount), cellProps: { textAlign: 'end' }, headerProps: { textAlign: 'end' } },
    { key: 'customer', header: t('qpay.col.customer'), cell: (row) => row.payer.name ?? row.payer.email ?? '—' },
    { key: 'created', header: t('qpay.col.created'), cell: (row) => format.dateTime(row.createdAt) },
    {
      key: 'paid',
      header: t('qpay.col.paid'),
      cell: (row) =>
        row.paidAt ? (
          <Stack gap="0">
            <Text>{format.dateTime(row.paidAt)}</Text>
            {row.approvedBy && <Text fontSize="xs" color="fg.muted">{t('qpay.approvedBy', { who: row.approvedBy })}</Text>}
          </Stack>
        ) : '—',
    },
  ];
  return (
    <ListCard
      title={t('qpay.recentTitle')}
      query={recent}
      loading={t('qpay.recentLoading')}
      failed={t('qpay.recentFetchFailed')}
      empty={t('qpay.recentEmpty')}
      testId="recent-invoices"
    >
      <DataTable
        columns={columns}
        rows={recent.data?.data ?? []}
        rowKey={(row) => row.invoiceId}
        rowProps={(row) => ({ 'data-invoice': row.invoiceId })}
        caption={t('qpay.recentTitle')}
        testId="recent-invoices-table"
      />
    </ListCard>
  );
}
