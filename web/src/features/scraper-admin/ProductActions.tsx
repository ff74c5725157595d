import { Badge, Button, Flex, Switch } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { productLabel, type ProductMappingView, type ScrapedProduct } from './api';
import { usePublishProduct, useRescrapeProduct, useToggleProductStatus, useUnpublishProduct } from './mutations';
import { useFailureToast } from './shared';

/** A variation as its row shows it: whether the shop has it (and how), its marketplace's name and its MNT price. */
export interface ProductView {
  product: ScrapedProduct;
  published: boolean;
  mapping: ProductMappingView | null;
  marketplace: string;
  priceMnt: number | null;
}

/**
 * Published or not; a published one's public/private switch (document 2 §4: publish ⇄ draft in
 * the shop). While the switch's call runs it shows the state asked for.
 */
export function PublishState({ view }: { view: ProductView }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const toggle = useToggleProductStatus({
    onSuccess: (reply) => notify({ title: reply.data.status === 'publish' ? t('scraperAdmin.products.nowPublic') : t('scraperAdmin.products.nowPrivate'), description: productLabel(view.product), type: 'success' }),
    onError: failed('scraperAdmin.products.toggleFailed'),
  });
  if (!view.published) return <Badge variant="outline" data-testid="publish-state" data-state="unpublished">{t('scraperAdmin.products.notPublished')}</Badge>;
  const status = toggle.isPending ? toggle.variables.status : (view.mapping?.status ?? 'publish');
  const label = productLabel(view.product);
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Badge colorPalette="green" data-testid="publish-state" data-state="published">{t('scraperAdmin.products.published')}</Badge>
      {view.mapping && (
        <Switch.Root
          size="sm"
          checked={status === 'publish'}
          disabled={toggle.isPending}
          onCheckedChange={(event) => !toggle.isPending && toggle.mutate({ id: view.product.id, status: event.checked ? 'publish' : 'draft' })}
          data-testid="visibility"
          data-status={status}
        >
          <Switch.HiddenInput aria-label={t('scraperAdmin.products.publicLabel', { name: label })} />
          <Switch.Control />
          <Switch.Label fontSize="xs" whiteSpace="nowrap">{status === 'publish' ? t('scraperAdmin.products.public') : t('scraperAdmin.products.private')}</Switch.Label>
        </Switch.Root>
      )}
    </Flex>
  );
}

/** Publish or Unpublish, Rescrape ('Price Changed' from the old to the new USD price, or 'Price Up To Date') and Delete (asked first). */
export function ProductActions({ view, onDelete, wrap = false }: { view: ProductView; onDelete: () => void; wrap?: boolean }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const label = productLabel(view.product);
  const publish = usePublishProduct({
    onSuccess: () => notify({ title: t('scraperAdmin.products.publishedOne'), description: label, type: 'success' }),
    onError: failed('scraperAdmin.products.publishFailed'),
  });
  const unpublish = useUnpublishProduct({
    onSuccess: () => notify({ title: t('scraperAdmin.products.unpublishedOne'), description: label, type: 'success' }),
    onError: failed('scraperAdmin.products.unpublishFailed'),
  });
  const rescrape = useRescrapeProduct({
    onSuccess: ({ data }) =>
      data.priceChanged
        ? notify({ title: t('scraperAdmin.products.priceChanged'), description: t('scraperAdmin.products.priceChangedBody', { old: data.oldPrice.toFixed(2), new: data.newPrice.toFixed(2) }), type: 'info' })
        : notify({ title: t('scraperAdmin.products.priceUpToDate'), description: t('scraperAdmin.products.priceUpToDateBody', { price: data.newPrice.toFixed(2) }), type: 'success' }),
    onError: failed('scraperAdmin.products.rescrapeFailed'),
  });
  const busy = publish.isPending || unpublish.isPending;
  return (
    <Flex gap="1" justify={wrap ? 'flex-start' : 'flex-end'} wrap={wrap ? 'wrap' : 'nowrap'}>
      {view.published ? (
        <Button size="xs" variant="outline" loading={unpublish.isPending} disabled={busy} onClick={() => unpublish.mutate(view.product.id)} aria-label={t('scraperAdmin.products.unpublishLabel', { name: label })}>
          {t('scraperAdmin.products.unpublish')}
        </Button>
      ) : (
        <Button size="xs" colorPalette="blue" loading={publish.isPending} disabled={busy} onClick={() => publish.mutate(view.product.id)} aria-label={t('scraperAdmin.products.publishLabel', { name: label })}>
          {t('scraperAdmin.products.publish')}
        </Button>
      )}
      <Button size="xs" variant="outline" loading={rescrape.isPending} onClick={() => !rescrape.isPending && rescrape.mutate(view.product.id)} aria-label={t('scraperAdmin.products.rescrapeLabel', { name: label })}>
        {t('scraperAdmin.products.rescrape')}
      </Button>
      <Button size="xs" variant="outline" colorPalette="red" onClick={onDelete} aria-label={t('scraperAdmin.deleteLabel', { name: label })}>
        {t('scraperAdmin.delete')}
      </Button>
    </Flex>
  );
}
