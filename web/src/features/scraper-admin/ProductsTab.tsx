import { Badge, Box, Button, Checkbox, Flex, IconButton, Stack, Table, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import {
  BULK_PUBLISH_ERROR_TOAST_MS, commissionFor, groupByGame, groupCheckState, isPublished, pageRange, partialSuccessText, priceInMnt, productLabel,
  toggleGroup, type GameGroup, type ProductGame, type ScrapedProduct,
} from './api';
import { useDeleteGame, useDeleteProduct, usePublishSelected, useSyncChangedPrices, useSyncDeletions } from './mutations';
import { ProductActions, PublishState, type ProductView } from './ProductActions';
import { useCommissionTiers, useExchangeRate, useMarketplaces, useProductGames, useProductMappings, useScrapedProducts } from './queries';
import { ListState, SectionCard, useFailureToast, useLoadFailureToast } from './shared';

type Deleting = { kind: 'product'; product: ScrapedProduct } | { kind: 'game'; gameName: string; count: number } | null;

/**
 * Document 2 §2.3 Products: a page of 50 scraped variations grouped by game, each game a row that
 * expands to its variations with a badge of how many it has (all of them, not the page's); a game's
 * checkbox selects its variations that are not yet published (indeterminate while some are). The
 * header syncs deletions, pushes changed prices (when there are some) and publishes the selection;
 * each variation is published, unpublished, made public or private, rescraped or deleted, and a
 * whole game deleted. A desktop table, and cards on a phone.
 */
export function ProductsTab() {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<Deleting>(null);
  const products = useScrapedProducts(page);
  useLoadFailureToast(products, 'scraperAdmin.products.fetchFailed');
  const games = useProductGames();
  const mappings = useProductMappings();
  const marketplaces = useMarketplaces();
  const rate = useExchangeRate();
  const tiers = useCommissionTiers();

  const rows = products.data?.data ?? [];
  const pagination = products.data?.pagination;
  const total = pagination?.total ?? 0;
  const totalPages = Math.max(1, pagination?.totalPages ?? 1);
  // A delete may leave the page past the last one: the last one there is, then.
  const lastPage = pagination?.totalPages;
  useEffect(() => {
    if (lastPage !== undefined && page > Math.max(1, lastPage)) setPage(Math.max(1, lastPage));
  }, [page, lastPage]);
  const groups = groupByGame(rows);
  const gameInfo = new Map((games.data?.data ?? []).map((game) => [game.gameName, game]));
  const mappingOf = new Map((mappings.data?.data ?? []).map((mapping) => [mapping.scrapedProductId, mapping]));
  // What Sync Changed Prices pushes: published variations whose marketplace price changed.
  const changedCount = (mappings.data?.data ?? []).filter((mapping) => mapping.priceChanged).length;
  const publishedIds = new Set(mappingOf.keys());
  const marketplaceName = new Map((marketplaces.data?.data ?? []).map((marketplace) => [marketplace.id, marketplace.name]));
  const settings = rate.data?.data;
  const mntOf = (product: ScrapedProduct) =>
    settings && tiers.data ? priceInMnt(product.priceUsd, commissionFor(product.priceUsd, tiers.data.data, settings.commissionRate), settings.rate) : null;
  const viewOf = (product: ScrapedProduct): ProductView => ({
    product,
    published: isPublished(product, publishedIds),
    mapping: mappingOf.get(product.id) ?? null,
    marketplace: marketplaceName.get(product.marketplaceId) ?? `#${product.marketplaceId}`,
    priceMnt: mntOf(product),
  });
  // Published products cannot be selected: any that got published meanwhile leave the selection.
  const selection = [...selected].filter((id) => !publishedIds.has(id) && !rows.some((row) => row.id === id && isPublished(row, publishedIds)));

  const syncDeletions = useSyncDeletions({
    onSuccess: ({ data }) => notify({ title: t('scraperAdmin.products.syncDeletionsDone'), description: t('scraperAdmin.products.syncDeletionsBody', { checked: data.checked, deleted: data.deleted }), type: 'success' }),
    onError: failed('scraperAdmin.products.syncDeletionsFailed'),
  });
  const syncChanged = useSyncChangedPrices({
    onSuccess: ({ data }) =>
      notify({
        title: t('scraperAdmin.products.syncChangedDone'),
        description: data.failed > 0
          ? partialSuccessText(data.failures, t('scraperAdmin.products.syncChangedPartial', { synced: data.syncedCount, failed: data.failed }), (count) => t('scraperAdmin.andMore', { count }))
          : t('scraperAdmin.products.syncChangedBody', { count: data.syncedCount }),
        type: data.failed > 0 ? 'error' : 'success',
      }),
    onError: failed('scraperAdmin.products.syncChangedFailed'),
  });
  const publishSelected = usePublishSelected({
    onSuccess: ({ data }) => {
      setSelected(new Set());
      if (data.failed > 0) {
        // Document 2 §8: the counts and the first three errors, '...and N more', for 10 s.
        notify({
          title: t('scraperAdmin.products.partialSuccess'),
          description: partialSuccessText(data.errors, t('scraperAdmin.products.partialCounts', { successful: data.successful, failed: data.failed }), (count) => t('scraperAdmin.andMore', { count })),
          type: data.successful > 0 ? 'info' : 'error',
          duration: BULK_PUBLISH_ERROR_TOAST_MS,
        });
      } else {
        notify({ title: t('scraperAdmin.products.publishedSelected'), description: t('scraperAdmin.products.publishedSelectedBody', { count: data.successful }), type: 'success' });
      }
    },
    onError: failed('scraperAdmin.products.publishSelectedFailed'),
  });

  const toggleOne = (id: number, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  /** A deleted variation leaves the selection. */
  const unselect = (ids: number[]) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) next.delete(id);
      return next;
    });
  const toggleGame = (group: GameGroup) => setSelected((current) => toggleGroup(current, groupCheckState(group.products, current, publishedIds).selectable));
  const toggleExpanded = (gameName: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(gameName)) next.delete(gameName);
      else next.add(gameName);
      return next;
    });
  const goTo = (next: number) => setPage(Math.min(Math.max(1, next), totalPages));
  const { from, to } = pageRange(page, total);

  const groupProps = (group: GameGroup): GroupProps => {
    const info = gameInfo.get(group.gameName);
    const check = groupCheckState(group.products, new Set(selection), publishedIds);
    return {
      group,
      info,
      open: expanded.has(group.gameName),
      checked: check.checked,
      selectable: check.selectable.length > 0,
      onToggleOpen: () => toggleExpanded(group.gameName),
      onToggleGame: () => toggleGame(group),
      onDeleteGame: () => setDeleting({ kind: 'game', gameName: group.gameName, count: info?.variations ?? group.products.length }),
      views: group.products.map(viewOf),
      selected: new Set(selection),
      onSelect: toggleOne,
      onDelete: (product) => setDeleting({ kind: 'product', product }),
    };
  };

  return (
    <SectionCard
      title={t('scraperAdmin.products.title')}
      subtitle={t('scraperAdmin.products.subtitle')}
      testId="scraped-products"
      actions={
        <>
          <Button size="sm" variant="outline" onClick={() => syncDeletions.mutate()} loading={syncDeletions.isPending}>{t('scraperAdmin.products.syncDeletions')}</Button>
          {changedCount > 0 && (
            <Button size="sm" variant="outline" colorPalette="orange" onClick={() => syncChanged.mutate()} loading={syncChanged.isPending}>
              {t('scraperAdmin.products.syncChanged', { count: changedCount })}
            </Button>
          )}
          <Button size="sm" colorPalette="blue" disabled={selection.length === 0} loading={publishSelected.isPending} onClick={() => selection.length > 0 && publishSelected.mutate(selection)}>
            {t('scraperAdmin.products.publishSelected', { count: selection.length })}
          </Button>
        </>
      }
    >
      <ListState query={products} failed={t('scraperAdmin.products.fetchFailed')} empty={t('scraperAdmin.products.empty')} count={rows.length}>
        <Box hideBelow="md">
          <ProductsTable groups={groups.map(groupProps)} />
        </Box>
        <Stack hideFrom="md" gap="3" data-testid="product-cards">
          {groups.map((group) => <GameCard key={group.gameName} {...groupProps(group)} />)}
        </Stack>
        <Flex gap="3" align="center" justify="space-between" wrap="wrap" pt="2" data-testid="products-pagination">
          <Text fontSize="sm" color="fg.muted" data-testid="products-range">{t('scraperAdmin.products.showing', { from, to, total })}</Text>
          <Flex gap="2" align="center">
            <Button size="sm" variant="outline" disabled={page <= 1 || products.isFetching} onClick={() => goTo(page - 1)}>{t('scraperAdmin.products.previous')}</Button>
            <Text fontSize="sm" whiteSpace="nowrap" data-testid="products-page">{t('scraperAdmin.products.pageOf', { page, pages: totalPages })}</Text>
            <Button size="sm" variant="outline" disabled={page >= totalPages || products.isFetching} onClick={() => goTo(page + 1)}>{t('scraperAdmin.products.next')}</Button>
          </Flex>
        </Flex>
      </ListState>
      {deleting?.kind === 'product' && <DeleteProductDialog product={deleting.product} onClose={() => setDeleting(null)} onDeleted={() => unselect([deleting.product.id])} />}
      {deleting?.kind === 'game' && (
        <DeleteGameDialog
          gameName={deleting.gameName}
          count={deleting.count}
          onClose={() => setDeleting(null)}
          onDeleted={() => unselect(rows.filter((row) => row.gameName === deleting.gameName).map((row) => row.id))}
        />
      )}
    </SectionCard>
  );
}

interface GroupProps {
  group: GameGroup;
  info: ProductGame | undefined;
  open: boolean;
  checked: boolean | 'indeterminate';
  selectable: boolean;
  onToggleOpen: () => void;
  onToggleGame: () => void;
  onDeleteGame: () => void;
  views: ProductView[];
  selected: ReadonlySet<number>;
  onSelect: (id: number, checked: boolean) => void;
  onDelete: (product: ScrapedProduct) => void;
}

/** A game's checkbox: every selectable variation of it on this page, indeterminate while some are chosen. */
function GameCheckbox({ name, checked, selectable, onToggle }: { name: string; checked: boolean | 'indeterminate'; selectable: boolean; onToggle: () => void }) {
  const { t } = useTexts();
  return (
    <Checkbox.Root checked={checked} disabled={!selectable} onCheckedChange={onToggle} data-testid="game-checkbox">
      <Checkbox.HiddenInput aria-label={t('scraperAdmin.products.selectGame', { game: name })} />
      {/* On the game's shaded row an empty box keeps the page's background, as the variations' boxes do. */}
      <Checkbox.Control bg="bg" _checked={{ bg: 'colorPalette.solid' }} _indeterminate={{ bg: 'colorPalette.solid' }}>
        <Checkbox.Indicator />
      </Checkbox.Control>
    </Checkbox.Root>
  );
}

function ProductCheckbox({ view, checked, onSelect }: { view: ProductView; checked: boolean; onSelect: (id: number, checked: boolean) => void }) {
  const { t } = useTexts();
  const label = productLabel(view.product);
  return (
    <Checkbox.Root checked={checked && !view.published} disabled={view.published} onCheckedChange={(event) => onSelect(view.product.id, event.checked === true)} data-testid="product-checkbox">
      <Checkbox.HiddenInput aria-label={view.published ? t('scraperAdmin.products.alreadyPublished', { name: label }) : t('scraperAdmin.products.select', { name: label })} />
      <Checkbox.Control>
        <Checkbox.Indicator />
      </Checkbox.Control>
    </Checkbox.Root>
  );
}

function ExpandButton({ name, open, onToggle }: { name: string; open: boolean; onToggle: () => void }) {
  const { t } = useTexts();
  return (
    <IconButton size="xs" variant="ghost" aria-expanded={open} aria-label={open ? t('scraperAdmin.products.collapse', { game: name }) : t('scraperAdmin.products.expand', { game: name })} onClick={onToggle}>
      <Text as="span" aria-hidden fontSize="md">{open ? '▾' : '▸'}</Text>
    </IconButton>
  );
}

function GameBadges({ group, info }: { group: GameGroup; info: ProductGame | undefined }) {
  const { t } = useTexts();
  const changed = info?.changed ?? group.products.filter((product) => product.priceChanged).length;
  return (
    <>
      <Badge colorPalette="blue" data-testid="variation-count">{t('scraperAdmin.products.variations', { count: info?.variations ?? group.products.length })}</Badge>
      {changed > 0 && <Badge colorPalette="orange">{t('scraperAdmin.products.changedCount', { count: changed })}</Badge>}
    </>
  );
}

/** The USD price with its Changed badge and the price before. */
function UsdPrice({ product }: { product: ScrapedProduct }) {
  const { t } = useTexts();
  return (
    <Stack gap="0.5" align={{ base: 'flex-start', md: 'flex-end' }}>
      <Flex gap="1.5" align="center">
        {product.priceChanged && <Badge colorPalette="orange" size="sm" data-testid="changed">{t('scraperAdmin.products.changed')}</Badge>}
        <Text as="span" fontWeight="medium" fontVariantNumeric="tabular-nums">{`$${product.priceUsd.toFixed(2)}`}</Text>
      </Flex>
      {product.priceChanged && product.previousPriceUsd !== null && (
        <Text as="span" fontSize="xs" color="fg.muted" textDecoration="line-through" fontVariantNumeric="tabular-nums">{`$${product.previousPriceUsd.toFixed(2)}`}</Text>
      )}
    </Stack>
  );
}

function ProductsTable({ groups }: { groups: GroupProps[] }) {
  const { t } = useTexts();
  const columns = 7;
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" data-testid="products-table">
        <Table.Caption srOnly>{t('scraperAdmin.products.title')}</Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader w="10"><Text srOnly>{t('scraperAdmin.products.selectColumn')}</Text></Table.ColumnHeader>
            <Table.ColumnHeader>{t('scraperAdmin.products.product')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('scraperAdmin.products.marketplace')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('scraperAdmin.products.priceUsd')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" whiteSpace="nowrap">{t('scraperAdmin.products.priceMnt')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('scraperAdmin.products.status')}</Table.ColumnHeader>
            <Table.ColumnHeader><Text srOnly>{t('scraperAdmin.actions')}</Text></Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {groups.map((props) => (
            <GameRows key={props.group.gameName} {...props} columns={columns} />
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function GameRows({ group, info, open, checked, selectable, onToggleOpen, onToggleGame, onDeleteGame, views, selected, onSelect, onDelete, columns }: GroupProps & { columns: number }) {
  const { t, format } = useTexts();
  return (
    <>
      <Table.Row bg="bg.muted" data-game={group.gameName} data-expanded={String(open)}>
        <Table.Cell position="relative">
          <GameCheckbox name={group.gameName} checked={checked} selectable={selectable} onToggle={onToggleGame} />
        </Table.Cell>
        <Table.Cell colSpan={columns - 2}>
          <Flex gap="2" align="center" wrap="wrap">
            <ExpandButton name={group.gameName} open={open} onToggle={onToggleOpen} />
            <Text as="button" fontWeight="semibold" onClick={onToggleOpen} cursor="pointer" textAlign="start" tabIndex={-1}>{group.gameName}</Text>
            <GameBadges group={group} info={info} />
            {info && (
              <Text fontSize="xs" color="fg.muted">
                {t('scraperAdmin.products.priceRange', { min: `$${info.minPriceUsd.toFixed(2)}`, max: `$${info.maxPriceUsd.toFixed(2)}` })}
              </Text>
            )}
          </Flex>
        </Table.Cell>
        <Table.Cell textAlign="end">
          <Button size="xs" variant="outline" colorPalette="red" onClick={onDeleteGame} aria-label={t('scraperAdmin.products.deleteGameLabel', { game: group.gameName })}>
            {t('scraperAdmin.products.deleteGame')}
          </Button>
        </Table.Cell>
      </Table.Row>
      {open &&
        views.map((view) => (
          <Table.Row key={view.product.id} data-product={String(view.product.id)} data-published={String(view.published)}>
            <Table.Cell position="relative">
              <ProductCheckbox view={view} checked={selected.has(view.product.id)} onSelect={onSelect} />
            </Table.Cell>
            <Table.Cell minW="56">
              <Stack gap="0">
                <Text fontWeight="medium">{view.product.productName}</Text>
                {view.product.variationValue && (
                  <Text fontSize="sm">
                    {view.product.attributeName ? `${view.product.attributeName}: ` : ''}
                    {view.product.variationValue}
                  </Text>
                )}
                {view.product.sellerName && <Text fontSize="xs" color="fg.muted">{t('scraperAdmin.products.seller', { seller: view.product.sellerName })}</Text>}
              </Stack>
            </Table.Cell>
            <Table.Cell fontSize="sm">{view.marketplace}</Table.Cell>
            <Table.Cell textAlign="end"><UsdPrice product={view.product} /></Table.Cell>
            <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">{view.priceMnt === null ? '—' : format.tugrik(view.priceMnt)}</Table.Cell>
            <Table.Cell position="relative"><PublishState view={view} /></Table.Cell>
            <Table.Cell><ProductActions view={view} onDelete={() => onDelete(view.product)} /></Table.Cell>
          </Table.Row>
        ))}
    </>
  );
}

/** A game on a phone: its header (checkbox, name, count, expand, delete), and its variations as cards once expanded. */
function GameCard({ group, info, open, checked, selectable, onToggleOpen, onToggleGame, onDeleteGame, views, selected, onSelect, onDelete }: GroupProps) {
  const { t, format } = useTexts();
  return (
    <Box borderWidth="1px" borderRadius="md" bg="bg" data-game={group.gameName} data-expanded={String(open)}>
      <Flex gap="2" align="center" p="3" bg="bg.muted" borderTopRadius="md" borderBottomRadius={open ? undefined : 'md'}>
        <Box position="relative">
          <GameCheckbox name={group.gameName} checked={checked} selectable={selectable} onToggle={onToggleGame} />
        </Box>
        <Stack gap="1" flex="1" minW="0">
          <Text fontWeight="semibold" wordBreak="break-word">{group.gameName}</Text>
          <Flex gap="1" wrap="wrap"><GameBadges group={group} info={info} /></Flex>
        </Stack>
        <ExpandButton name={group.gameName} open={open} onToggle={onToggleOpen} />
      </Flex>
      {open && (
        <Stack gap="0" separator={<Box borderTopWidth="1px" />}>
          {views.map((view) => (
            <Stack key={view.product.id} gap="2" p="3" data-product={String(view.product.id)} data-published={String(view.published)}>
              <Flex gap="2" align="flex-start">
                <Box position="relative" pt="0.5">
                  <ProductCheckbox view={view} checked={selected.has(view.product.id)} onSelect={onSelect} />
                </Box>
                <Stack gap="0" flex="1" minW="0">
                  <Text fontWeight="medium" wordBreak="break-word">{view.product.productName}</Text>
                  {view.product.variationValue && <Text fontSize="sm" wordBreak="break-word">{view.product.variationValue}</Text>}
                  <Text fontSize="xs" color="fg.muted" wordBreak="break-word">
                    {[view.marketplace, view.product.sellerName].filter(Boolean).join(' · ')}
                  </Text>
                </Stack>
                <Stack gap="0" align="flex-end" flexShrink="0">
                  <UsdPrice product={view.product} />
                  <Text fontSize="sm" color="fg.muted" fontVariantNumeric="tabular-nums">{view.priceMnt === null ? '—' : format.tugrik(view.priceMnt)}</Text>
                </Stack>
              </Flex>
              <Box position="relative"><PublishState view={view} /></Box>
              <ProductActions view={view} onDelete={() => onDelete(view.product)} wrap />
            </Stack>
          ))}
          <Flex p="3" justify="flex-end">
            <Button size="xs" variant="outline" colorPalette="red" onClick={onDeleteGame} aria-label={t('scraperAdmin.products.deleteGameLabel', { game: group.gameName })}>
              {t('scraperAdmin.products.deleteGame')}
            </Button>
          </Flex>
        </Stack>
      )}
    </Box>
  );
}

function DeleteProductDialog({ product, onClose, onDeleted }: { product: ScrapedProduct; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteProduct({
    onSuccess: () => {
      notify({ title: t('scraperAdmin.products.variationDeleted'), type: 'success' });
      onDeleted();
      onClose();
    },
    onError: (error) => {
      failed('scraperAdmin.products.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('scraperAdmin.products.deleteTitle')}
      message={t('scraperAdmin.products.deleteMessage', { name: productLabel(product), game: product.gameName })}
      confirmLabel={t('scraperAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(product.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}

function DeleteGameDialog({ gameName, count, onClose, onDeleted }: { gameName: string; count: number; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteGame({
    onSuccess: () => {
      notify({ title: t('scraperAdmin.products.gameDeleted'), type: 'success' });
      onDeleted();
      onClose();
    },
    onError: (error) => {
      failed('scraperAdmin.products.deleteGameFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('scraperAdmin.products.deleteGameTitle')}
      message={t('scraperAdmin.products.deleteGameMessage', { game: gameName, count })}
      confirmLabel={t('scraperAdmin.products.deleteGameConfirm')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(gameName)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
