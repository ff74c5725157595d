import { Box, Button, Code, Flex, Input, Switch, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { configText, marketplaceBodyOf, type Marketplace, type MarketplaceForm, type MarketplaceProblem } from './api';
import { useCreateMarketplace, useUpdateMarketplace } from './mutations';

const blank: MarketplaceForm = { name: '', url: '', countryCode: '', scrapeConfig: '', paginationEnabled: false, paginationParam: 'page', enabled: true };

const formOf = (marketplace: Marketplace): MarketplaceForm => ({
  name: marketplace.name,
  url: marketplace.url,
  countryCode: marketplace.countryCode,
  scrapeConfig: configText(marketplace.scrapeConfig),
  paginationEnabled: marketplace.paginationEnabled,
  paginationParam: marketplace.paginationParam ?? 'page',
  enabled: marketplace.enabled,
});

/**
 * Add Marketplace without one, Edit with one (document 2 §5): name and URL required, the URL a
 * URL, a blank country code is us, the scrape config a JSON object typed in (the server reads it and
 * names what is wrong: its 400 is shown here, the dialog kept open), the pagination parameter only
 * while pagination is on.
 */
export function MarketplaceDialog({ marketplace, onClose }: { marketplace: Marketplace | null; onClose: () => void }) {
  const { t } = useTexts();
  const [form, setForm] = useState<MarketplaceForm>(() => (marketplace ? formOf(marketplace) : blank));
  const [problems, setProblems] = useState<Partial<Record<'name' | 'url', MarketplaceProblem>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const set = <Field extends keyof MarketplaceForm>(field: Field, value: MarketplaceForm[Field]) => setForm((current) => ({ ...current, [field]: value }));
  const saved = (title: 'scraperAdmin.marketplaces.added' | 'scraperAdmin.marketplaces.updated') => () => {
    notify({ title: t(title), type: 'success' });
    onClose();
  };
  const refused = (error: unknown) => setServerError(errorText(error, t('scraperAdmin.marketplaces.saveFailed')));
  const create = useCreateMarketplace({ onSuccess: saved('scraperAdmin.marketplaces.added'), onError: refused });
  const update = useUpdateMarketplace({ onSuccess: saved('scraperAdmin.marketplaces.updated'), onError: refused });
  const busy = create.isPending || update.isPending;

  const submit = () => {
    if (busy) return;
    const checked = marketplaceBodyOf(form);
    if ('problems' in checked) return setProblems(checked.problems);
    setProblems({});
    setServerError(null);
    if (marketplace) update.mutate({ id: marketplace.id, body: checked.body });
    else create.mutate(checked.body);
  };
  const problemText = (problem: MarketplaceProblem | undefined) => (problem ? t(`scraperAdmin.marketplaces.${problem}`) : null);

  return (
    <Dialog
      open
      size="lg"
      onClose={() => !busy && onClose()}
      title={marketplace ? t('scraperAdmin.marketplaces.editTitle') : t('scraperAdmin.marketplaces.addTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="marketplace-form" loading={busy} loadingText={t('common.saving')}>
            {marketplace ? t('scraperAdmin.saveChanges') : t('scraperAdmin.marketplaces.addButton')}
          </Button>
        </>
      }
    >
      <Form id="marketplace-form" onSubmit={submit} noValidate gap="4">
        {serverError && <ErrorAlert title={t('scraperAdmin.marketplaces.refused')} description={<Text wordBreak="break-word" data-testid="marketplace-error">{serverError}</Text>} />}
        <FormField label={t('scraperAdmin.marketplaces.name')} required error={problemText(problems.name)}>
          <Input name="name" value={form.name} onChange={(event) => set('name', event.target.value)} maxLength={200} autoComplete="off" />
        </FormField>
        <FormField label={t('scraperAdmin.marketplaces.url')} required error={problemText(problems.url)} helper={t('scraperAdmin.marketplaces.urlHelper')}>
          <Input name="url" type="url" inputMode="url" value={form.url} onChange={(event) => set('url', event.target.value)} maxLength={2000} autoComplete="off" spellCheck={false} placeholder="https://www.g2g.com/categories/mobile-legends-diamonds" />
        </FormField>
        <FormField label={t('scraperAdmin.marketplaces.countryCode')} helper={t('scraperAdmin.marketplaces.countryHelper')}>
          <Input name="countryCode" value={form.countryCode} onChange={(event) => set('countryCode', event.target.value)} maxLength={2} autoComplete="off" placeholder="us" maxW="24" textTransform="uppercase" />
        </FormField>
        <FormField label={t('scraperAdmin.marketplaces.scrapeConfig')} helper={t('scraperAdmin.marketplaces.scrapeConfigHelper')}>
          <Textarea
            name="scrapeConfig"
            value={form.scrapeConfig}
            onChange={(event) => set('scrapeConfig', event.target.value)}
            rows={8}
            fontFamily="mono"
            fontSize="xs"
            spellCheck={false}
            autoComplete="off"
            placeholder={'{\n  "cardSelector": ".offer-card",\n  "fields": { "gameName": ".offer-game", "productName": ".offer-title", "priceUsd": ".offer-price-amount" }\n}'}
          />
        </FormField>
        <Flex gap="4" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }}>
          <Box minW="48" pb={{ md: '2' }}>
            <Switch.Root name="paginationEnabled" checked={form.paginationEnabled} onCheckedChange={(event) => set('paginationEnabled', event.checked)}>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{t('scraperAdmin.marketplaces.pagination')}</Switch.Label>
            </Switch.Root>
          </Box>
          {form.paginationEnabled && (
            <Box flex="1">
              <FormField label={t('scraperAdmin.marketplaces.paginationParam')} helper={t('scraperAdmin.marketplaces.paginationParamHelper')}>
                <Input name="paginationParam" value={form.paginationParam} onChange={(event) => set('paginationParam', event.target.value)} maxLength={100} autoComplete="off" spellCheck={false} fontFamily="mono" placeholder="page" />
              </FormField>
            </Box>
          )}
        </Flex>
        <Box>
          <Switch.Root name="enabled" checked={form.enabled} onCheckedChange={(event) => set('enabled', event.checked)}>
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>{t('scraperAdmin.marketplaces.enabled')}</Switch.Label>
          </Switch.Root>
        </Box>
        <Text fontSize="xs" color="fg.muted">
          {t('scraperAdmin.marketplaces.configFields')} <Code size="sm">cardSelector</Code>, <Code size="sm">fields.gameName</Code>, <Code size="sm">fields.productName</Code>, <Code size="sm">fields.priceUsd</Code>
        </Text>
      </Form>
    </Dialog>
  );
}
