import { Box, Button, Flex, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { StatCard } from '../../components/StatCard';
import { useTexts, type MessageKey } from '../../i18n';
import { notify } from '../../lib/toast';
import { DEFAULT_EXCHANGE_RATE, numberOf, sortTiers, tierBodyOf, usd, type CommissionTier, type TierProblem } from './api';
import { useCreateTier, useDeleteTier, useUpdateCommission, useUpdateRate, useUpdateTier } from './mutations';
import { useCommissionTiers, useExchangeRate } from './queries';
import { contained, ListState, Loading, SectionCard, useFailureToast, useLoadFailureToast } from './shared';

/** Document 2 §2.3 Pricing: the exchange rate and the global commission, and the commission tiers. */
export function PricingTab() {
  return (
    <Stack gap="6">
      <RateCard />
      <TiersCard />
    </Stack>
  );
}

/**
 * The rate in MNT per 1 USD (3400 until one is saved), the commission percent (0 by default), who
 * saved them and when; two update inputs, each ignored while empty.
 */
function RateCard() {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const rate = useExchangeRate();
  useLoadFailureToast(rate, 'scraperAdmin.rate.fetchFailed');
  const [newRate, setNewRate] = useState('');
  const [newCommission, setNewCommission] = useState('');
  const updateRate = useUpdateRate({
    onSuccess: () => {
      setNewRate('');
      notify({ title: t('scraperAdmin.rate.updated'), type: 'success' });
    },
    onError: failed('scraperAdmin.rate.updateFailed'),
  });
  const updateCommission = useUpdateCommission({
    onSuccess: () => {
      setNewCommission('');
      notify({ title: t('scraperAdmin.rate.commissionUpdated'), type: 'success' });
    },
    onError: failed('scraperAdmin.rate.commissionUpdateFailed'),
  });
  const current = rate.data?.data;
  const shownRate = current?.rate ?? DEFAULT_EXCHANGE_RATE;
  const shownCommission = current?.commissionRate ?? 0;

  // Document 2 §5: an update with nothing typed is ignored (a text that is no number goes to the server, which says why).
  const submitRate = () => {
    if (!newRate.trim() || updateRate.isPending) return;
    updateRate.mutate({ rate: numberOf(newRate) ?? Number.NaN });
  };
  const submitCommission = () => {
    if (!newCommission.trim() || updateCommission.isPending) return;
    updateCommission.mutate({ commissionRate: numberOf(newCommission) ?? Number.NaN });
  };

  return (
    <SectionCard title={t('scraperAdmin.rate.title')} subtitle={t('scraperAdmin.rate.subtitle')} testId="exchange-rate">
      {rate.isPending ? (
        <Loading />
      ) : (
        <Stack gap="5">
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
            <Box data-testid="current-rate">
              <StatCard label={t('scraperAdmin.rate.current')} value={t('scraperAdmin.rate.perUsd', { rate: format.number(shownRate) })} caption={t('scraperAdmin.rate.currentCaption')} />
            </Box>
            <Box data-testid="current-commission">
              <StatCard label={t('scraperAdmin.rate.commission')} value={t('scraperAdmin.rate.percent', { percent: format.number(shownCommission) })} caption={t('scraperAdmin.rate.commissionCaption')} />
            </Box>
            <Box data-testid="rate-updated-by">
              <StatCard
                label={t('scraperAdmin.rate.lastUpdated')}
                value={<Text as="span" fontSize="md" wordBreak="break-word">{current?.updatedBy ?? t('scraperAdmin.rate.defaults')}</Text>}
                caption={current?.createdAt ? format.dateTime(current.createdAt) : t('scraperAdmin.rate.neverSaved')}
              />
            </Box>
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Form onSubmit={submitRate} noValidate>
              <FormField label={t('scraperAdmin.rate.newRate')} helper={t('scraperAdmin.rate.newRateHelper')}>
                <Flex gap="2" w="full">
                  <Input name="rate" type="number" inputMode="decimal" min={0} step="0.01" value={newRate} onChange={(event) => setNewRate(event.target.value)} placeholder={String(shownRate)} />
                  <Button type="submit" colorPalette="blue" loading={updateRate.isPending} flexShrink="0">{t('scraperAdmin.rate.updateRate')}</Button>
                </Flex>
              </FormField>
            </Form>
            <Form onSubmit={submitCommission} noValidate>
              <FormField label={t('scraperAdmin.rate.newCommission')} helper={t('scraperAdmin.rate.newCommissionHelper')}>
                <Flex gap="2" w="full">
                  <Input name="commissionRate" type="number" inputMode="decimal" min={0} step="0.1" value={newCommission} onChange={(event) => setNewCommission(event.target.value)} placeholder={String(shownCommission)} />
                  <Button type="submit" colorPalette="blue" loading={updateCommission.isPending} flexShrink="0">{t('scraperAdmin.rate.updateCommission')}</Button>
                </Flex>
              </FormField>
            </Form>
          </SimpleGrid>
        </Stack>
      )}
    </SectionCard>
  );
}

type Editing = { tier: CommissionTier | null } | null;

/** Ascending by min price; add, edit and delete in dialogs. */
function TiersCard() {
  const { t } = useTexts();
  const tiers = useCommissionTiers();
  useLoadFailureToast(tiers, 'scraperAdmin.tiers.fetchFailed');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CommissionTier | null>(null);
  const rows = sortTiers(tiers.data?.data ?? []);
  const rangeOf = (tier: CommissionTier) => (tier.maxPrice === null ? t('scraperAdmin.tiers.rangeOpen', { min: usd(tier.minPrice) }) : t('scraperAdmin.tiers.range', { min: usd(tier.minPrice), max: usd(tier.maxPrice) }));
  const columns: Column<CommissionTier>[] = [
    { key: 'minPrice', header: t('scraperAdmin.tiers.minPrice'), headerProps: { textAlign: 'end' }, cellProps: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' }, cell: (row) => usd(row.minPrice) },
    {
      key: 'maxPrice',
      header: t('scraperAdmin.tiers.maxPrice'),
      headerProps: { textAlign: 'end' },
      cellProps: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
      cell: (row) => (row.maxPrice === null ? <Text as="span" color="fg.muted">{t('scraperAdmin.tiers.noLimit')}</Text> : usd(row.maxPrice)),
    },
    { key: 'commissionRate', header: t('scraperAdmin.tiers.commissionRate'), headerProps: { textAlign: 'end' }, cellProps: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' }, cell: (row) => `${row.commissionRate}%` },
    {
      key: 'actions',
      header: <Text srOnly>{t('scraperAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => (
        <Flex gap="1" justify="flex-end">
          <Button size="xs" variant="outline" onClick={() => setEditing({ tier: row })} aria-label={t('scraperAdmin.editLabel', { name: rangeOf(row) })}>{t('scraperAdmin.edit')}</Button>
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(row)} aria-label={t('scraperAdmin.deleteLabel', { name: rangeOf(row) })}>{t('scraperAdmin.delete')}</Button>
        </Flex>
      ),
    },
  ];
  return (
    <SectionCard
      title={t('scraperAdmin.tiers.title')}
      subtitle={t('scraperAdmin.tiers.subtitle')}
      testId="commission-tiers"
      actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ tier: null })}>{t('scraperAdmin.tiers.add')}</Button>}
    >
      <ListState query={tiers} failed={t('scraperAdmin.tiers.fetchFailed')} empty={t('scraperAdmin.tiers.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-tier': String(row.id) })} caption={t('scraperAdmin.tiers.title')} testId="tiers-table" />
      </ListState>
      {editing && <TierDialog tier={editing.tier} onClose={() => setEditing(null)} />}
      {deleting && <DeleteTierDialog tier={deleting} name={rangeOf(deleting)} onClose={() => setDeleting(null)} />}
    </SectionCard>
  );
}

const problemText: Record<TierProblem, MessageKey> = {
  minPrice: 'scraperAdmin.tiers.minPriceRequired',
  maxPrice: 'scraperAdmin.tiers.maxPriceInvalid',
  commissionRate: 'scraperAdmin.tiers.commissionRequired',
};

/** Add mode without a tier, edit mode with one. Document 2 §5: min and rate required and >= 0, max optional; steps 0.01 and 0.1. */
function TierDialog({ tier, onClose }: { tier: CommissionTier | null; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [minPrice, setMinPrice] = useState(tier ? String(tier.minPrice) : '');
  const [maxPrice, setMaxPrice] = useState(tier?.maxPrice === null || !tier ? '' : String(tier.maxPrice));
  const [commissionRate, setCommissionRate] = useState(tier ? String(tier.commissionRate) : '');
  const [problem, setProblem] = useState<TierProblem | null>(null);
  const saved = (title: MessageKey) => () => {
    notify({ title: t(title), type: 'success' });
    onClose();
  };
  const create = useCreateTier({ onSuccess: saved('scraperAdmin.tiers.created'), onError: failed('scraperAdmin.tiers.saveFailed') });
  const update = useUpdateTier({ onSuccess: saved('scraperAdmin.tiers.updated'), onError: failed('scraperAdmin.tiers.saveFailed') });
  const busy = create.isPending || update.isPending;
  const submit = () => {
    if (busy) return;
    const checked = tierBodyOf({ minPrice, maxPrice, commissionRate });
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(null);
    if (tier) update.mutate({ id: tier.id, body: checked.body });
    else create.mutate(checked.body);
  };
  const errorFor = (field: TierProblem) => (problem === field ? t(problemText[field]) : null);
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={tier ? t('scraperAdmin.tiers.editTitle') : t('scraperAdmin.tiers.addTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="tier-form" loading={busy} loadingText={t('common.saving')}>{tier ? t('scraperAdmin.saveChanges') : t('scraperAdmin.tiers.addButton')}</Button>
        </>
      }
    >
      <Form id="tier-form" onSubmit={submit} noValidate gap="4">
        <FormField label={t('scraperAdmin.tiers.minPriceUsd')} required error={errorFor('minPrice')}>
          <Input name="minPrice" type="number" inputMode="decimal" min={0} step="0.01" value={minPrice} onChange={(event) => setMinPrice(event.target.value)} />
        </FormField>
        <FormField label={t('scraperAdmin.tiers.maxPriceUsd')} helper={t('scraperAdmin.tiers.maxPriceHelper')} error={errorFor('maxPrice')}>
          <Input name="maxPrice" type="number" inputMode="decimal" min={0} step="0.01" value={maxPrice} onChange={(event) => setMaxPrice(event.target.value)} />
        </FormField>
        <FormField label={t('scraperAdmin.tiers.commissionPercent')} required error={errorFor('commissionRate')}>
          <Input name="commissionRate" type="number" inputMode="decimal" min={0} step="0.1" value={commissionRate} onChange={(event) => setCommissionRate(event.target.value)} />
        </FormField>
      </Form>
    </Dialog>
  );
}

function DeleteTierDialog({ tier, name, onClose }: { tier: CommissionTier; name: string; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteTier({
    onSuccess: () => {
      notify({ title: t('scraperAdmin.tiers.deleted'), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('scraperAdmin.tiers.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('scraperAdmin.tiers.deleteTitle')}
      message={t('scraperAdmin.tiers.deleteMessage', { name, rate: tier.commissionRate })}
      confirmLabel={t('scraperAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(tier.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
