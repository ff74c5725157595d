import { Button, Input, SimpleGrid, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { MAX_PAGES_PER_JOB, pageNumberOf, pagesToScrape, type Marketplace, type ScrapeJob } from './api';
import { useStartScrape } from './mutations';

/**
 * Document 2 §5's Scrape Marketplace dialog: start and end page, each at least 1; it says
 * 'Scraping N page(s)' with N = end − start + 1. Starting opens the job's progress.
 */
export function ScrapeDialog({ marketplace, onClose, onStarted }: { marketplace: Marketplace; onClose: () => void; onStarted: (job: ScrapeJob) => void }) {
  const { t } = useTexts();
  const [start, setStart] = useState('1');
  const [end, setEnd] = useState('1');
  const [refused, setRefused] = useState<string | null>(null);
  const scrape = useStartScrape({
    onSuccess: (reply) => onStarted(reply.data),
    onError: (error) => setRefused(errorText(error, t('scraperAdmin.scrape.failed'))),
  });
  const startPage = pageNumberOf(start);
  const endPage = pageNumberOf(end);
  const count = startPage !== null && endPage !== null ? pagesToScrape(startPage, endPage) : 0;
  const tooMany = count > MAX_PAGES_PER_JOB;
  const submit = () => {
    if (scrape.isPending || startPage === null || endPage === null || count === 0 || tooMany) return;
    setRefused(null);
    scrape.mutate({ marketplaceId: marketplace.id, body: { startPage, endPage } });
  };
  const problem =
    startPage === null ? t('scraperAdmin.scrape.startInvalid')
    : endPage === null ? t('scraperAdmin.scrape.endInvalid')
    : count === 0 ? t('scraperAdmin.scrape.endBeforeStart')
    : tooMany ? t('scraperAdmin.scrape.tooMany', { max: MAX_PAGES_PER_JOB })
    : null;
  return (
    <Dialog
      open
      onClose={() => !scrape.isPending && onClose()}
      title={t('scraperAdmin.scrape.title')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={scrape.isPending}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="scrape-form" disabled={problem !== null} loading={scrape.isPending}>{t('scraperAdmin.scrape.start')}</Button>
        </>
      }
    >
      <Form id="scrape-form" onSubmit={submit} noValidate gap="4">
        <Text>{t('scraperAdmin.scrape.intro', { name: marketplace.name })}</Text>
        {refused && <ErrorAlert title={t('scraperAdmin.scrape.failed')} description={refused} />}
        <SimpleGrid columns={2} gap="3">
          <FormField label={t('scraperAdmin.scrape.startPage')} required error={startPage === null ? t('scraperAdmin.scrape.startInvalid') : null}>
            <Input name="startPage" type="number" inputMode="numeric" min={1} step={1} value={start} onChange={(event) => setStart(event.target.value)} />
          </FormField>
          <FormField label={t('scraperAdmin.scrape.endPage')} required error={endPage === null ? t('scraperAdmin.scrape.endInvalid') : null}>
            <Input name="endPage" type="number" inputMode="numeric" min={1} step={1} value={end} onChange={(event) => setEnd(event.target.value)} />
          </FormField>
        </SimpleGrid>
        <Text fontWeight="medium" data-testid="pages-to-scrape" color={problem && startPage !== null && endPage !== null ? 'red.fg' : undefined}>
          {problem && startPage !== null && endPage !== null ? problem : t('scraperAdmin.scrape.pageCount', { count })}
        </Text>
      </Form>
    </Dialog>
  );
}
