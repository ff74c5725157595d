import { Badge, Button, Flex, Link, Stack, Switch, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog } from '../../components/Dialog';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { canResume, isActiveJob, jobCreatedAt, type Marketplace, type ScrapeJob } from './api';
import { MarketplaceDialog } from './MarketplaceDialog';
import { useCancelJob, useDeleteMarketplace, useResumeJob, useUpdateMarketplace } from './mutations';
import { ProgressDialog } from './ProgressDialog';
import { useMarketplaces, useScrapeJobs } from './queries';
import { ScrapeDialog } from './ScrapeDialog';
import { contained, JobStatusBadge, ListState, SectionCard, useFailureToast, useLoadFailureToast } from './shared';

/** The job whose Scraping Progress dialog is open, with the job as it was known when it was opened. */
type Watching = { id: number; job?: ScrapeJob } | null;

/**
 * Document 2 §2.3 Jobs and Marketplaces: the scrape jobs (resume a failed or cancelled one, view or
 * cancel one in progress) and the marketplaces they read (add, edit, switch on and off, Scrape Now,
 * delete). Starting, resuming or viewing a job opens its Scraping Progress dialog.
 */
export function JobsTab() {
  const [watching, setWatching] = useState<Watching>(null);
  return (
    <Stack gap="6">
      <JobsCard onWatch={setWatching} />
      <MarketplacesCard onWatch={setWatching} />
      {watching && <ProgressDialog jobId={watching.id} initial={watching.job} onClose={() => setWatching(null)} />}
    </Stack>
  );
}

function JobsCard({ onWatch }: { onWatch: (watching: Watching) => void }) {
  const { t, format, language } = useTexts();
  const failed = useFailureToast();
  const jobs = useScrapeJobs();
  useLoadFailureToast(jobs, 'scraperAdmin.jobs.fetchFailed');
  const rows = jobs.data?.data ?? [];
  const resume = useResumeJob({
    onSuccess: (reply) => {
      notify({ title: t('scraperAdmin.jobs.resumed'), type: 'success' });
      onWatch({ id: reply.data.id, job: reply.data });
    },
    onError: failed('scraperAdmin.jobs.resumeFailed'),
  });
  // Document 2 §8: a failed cancel is only logged.
  const cancel = useCancelJob({ onError: (error) => console.error('Failed to cancel job', error) });
  const created = (value: string) => (language === 'en' ? jobCreatedAt(value) : format.dateTime(value));
  const columns: Column<ScrapeJob>[] = [
    { key: 'marketplace', header: t('scraperAdmin.jobs.marketplace'), cell: (row) => row.marketplaceName, cellProps: { fontWeight: 'medium' } },
    {
      key: 'status',
      header: t('scraperAdmin.jobs.status'),
      cell: (row) => (
        <Stack gap="1" align="flex-start">
          <JobStatusBadge status={row.status} />
          {row.error && <Text fontSize="xs" color="red.fg" maxW="64" lineClamp={2} title={row.error}>{row.error}</Text>}
        </Stack>
      ),
    },
    { key: 'pages', header: t('scraperAdmin.jobs.pages'), cell: (row) => `${row.currentPage}/${row.totalPages}`, cellProps: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } },
    { key: 'products', header: t('scraperAdmin.jobs.products'), cell: (row) => format.number(row.totalProducts), headerProps: { textAlign: 'end' }, cellProps: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' } },
    { key: 'created', header: t('scraperAdmin.jobs.created'), cell: (row) => created(row.createdAt), cellProps: { whiteSpace: 'nowrap', fontSize: 'sm' } },
    {
      key: 'actions',
      header: t('scraperAdmin.jobs.actions'),
      cell: (row) => {
        const name = t('scraperAdmin.jobs.jobName', { id: row.id, marketplace: row.marketplaceName });
        return (
          <Flex gap="1" wrap="nowrap">
            {canResume(row) && (
              <Button size="xs" variant="outline" colorPalette="blue" loading={resume.isPending && resume.variables === row.id} onClick={() => !resume.isPending && resume.mutate(row.id)} aria-label={t('scraperAdmin.jobs.resumeLabel', { name })}>
                {t('scraperAdmin.jobs.resume')}
              </Button>
            )}
            {isActiveJob(row) && (
              <>
                <Button size="xs" variant="outline" onClick={() => onWatch({ id: row.id, job: row })} aria-label={t('scraperAdmin.jobs.viewLabel', { name })}>{t('scraperAdmin.jobs.view')}</Button>
                <Button size="xs" variant="outline" colorPalette="red" loading={cancel.isPending && cancel.variables === row.id} onClick={() => !cancel.isPending && cancel.mutate(row.id)} aria-label={t('scraperAdmin.jobs.cancelLabel', { name })}>
                  {t('scraperAdmin.jobs.cancel')}
                </Button>
              </>
            )}
          </Flex>
        );
      },
    },
  ];
  return (
    <SectionCard title={t('scraperAdmin.jobs.title')} subtitle={t('scraperAdmin.jobs.subtitle')} testId="scrape-jobs">
      <ListState query={jobs} failed={t('scraperAdmin.jobs.fetchFailed')} empty={t('scraperAdmin.jobs.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-job': String(row.id), 'data-status': row.status })} caption={t('scraperAdmin.jobs.title')} testId="jobs-table" />
      </ListState>
    </SectionCard>
  );
}

type Editing = { marketplace: Marketplace | null } | null;

function MarketplacesCard({ onWatch }: { onWatch: (watching: Watching) => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const marketplaces = useMarketplaces();
  useLoadFailureToast(marketplaces, 'scraperAdmin.marketplaces.fetchFailed');
  const [editing, setEditing] = useState<Editing>(null);
  const [scraping, setScraping] = useState<Marketplace | null>(null);
  const [deleting, setDeleting] = useState<Marketplace | null>(null);
  const rows = marketplaces.data?.data ?? [];
  const toggle = useUpdateMarketplace({
    onSuccess: () => notify({ title: t('scraperAdmin.marketplaces.updated'), type: 'success' }),
    onError: failed('scraperAdmin.marketplaces.saveFailed'),
  });
  // While a switch's call runs it shows the state asked for.
  const pending = toggle.isPending ? toggle.variables : undefined;
  const columns: Column<Marketplace>[] = [
    { key: 'name', header: t('scraperAdmin.marketplaces.name'), cell: (row) => row.name, cellProps: { fontWeight: 'medium' } },
    {
      key: 'url',
      header: t('scraperAdmin.marketplaces.url'),
      cellProps: { minW: '48', maxW: '96' },
      cell: (row) => (
        <Link href={row.url} target="_blank" rel="noreferrer" colorPalette="blue" fontSize="sm" wordBreak="break-all">{row.url}</Link>
      ),
    },
    { key: 'countryCode', header: t('scraperAdmin.marketplaces.countryCode'), cell: (row) => <Badge variant="outline">{row.countryCode.toUpperCase()}</Badge> },
    {
      key: 'enabled',
      header: t('scraperAdmin.marketplaces.status'),
      cellProps: contained,
      cell: (row) => {
        const enabled = pending?.id === row.id ? Boolean(pending.body.enabled) : row.enabled;
        return (
          <Switch.Root
            size="sm"
            checked={enabled}
            disabled={pending?.id === row.id}
            onCheckedChange={(event) => !toggle.isPending && toggle.mutate({ id: row.id, body: { enabled: event.checked } })}
          >
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label whiteSpace="nowrap">{enabled ? t('scraperAdmin.marketplaces.enabled') : t('scraperAdmin.marketplaces.disabled')}</Switch.Label>
          </Switch.Root>
        );
      },
    },
    {
      key: 'actions',
      header: <Text srOnly>{t('scraperAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => (
        <Flex gap="1" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="outline" onClick={() => setEditing({ marketplace: row })} aria-label={t('scraperAdmin.editLabel', { name: row.name })}>{t('scraperAdmin.edit')}</Button>
          <Button size="xs" colorPalette="blue" disabled={!row.enabled} onClick={() => setScraping(row)} aria-label={t('scraperAdmin.marketplaces.scrapeLabel', { name: row.name })}>
            {t('scraperAdmin.marketplaces.scrapeNow')}
          </Button>
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(row)} aria-label={t('scraperAdmin.deleteLabel', { name: row.name })}>{t('scraperAdmin.delete')}</Button>
        </Flex>
      ),
    },
  ];
  return (
    <SectionCard
      title={t('scraperAdmin.marketplaces.title')}
      subtitle={t('scraperAdmin.marketplaces.subtitle')}
      testId="marketplaces"
      actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ marketplace: null })}>{t('scraperAdmin.marketplaces.add')}</Button>}
    >
      <ListState query={marketplaces} failed={t('scraperAdmin.marketplaces.fetchFailed')} empty={t('scraperAdmin.marketplaces.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-marketplace': row.name })} caption={t('scraperAdmin.marketplaces.title')} testId="marketplaces-table" />
      </ListState>
      {editing && <MarketplaceDialog marketplace={editing.marketplace} onClose={() => setEditing(null)} />}
      {scraping && (
        <ScrapeDialog
          marketplace={scraping}
          onClose={() => setScraping(null)}
          onStarted={(job) => {
            setScraping(null);
            onWatch({ id: job.id, job });
          }}
        />
      )}
      {deleting && <DeleteMarketplaceDialog marketplace={deleting} onClose={() => setDeleting(null)} />}
    </SectionCard>
  );
}

function DeleteMarketplaceDialog({ marketplace, onClose }: { marketplace: Marketplace; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteMarketplace({
    onSuccess: () => {
      notify({ title: t('scraperAdmin.marketplaces.deleted'), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('scraperAdmin.marketplaces.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('scraperAdmin.marketplaces.deleteTitle')}
      message={t('scraperAdmin.marketplaces.deleteMessage', { name: marketplace.name })}
      confirmLabel={t('scraperAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(marketplace.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
