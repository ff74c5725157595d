import { actionButton, escapeHtml, htmlTable, type PageSection } from '@bo/sim-kit';
import type { MarketplaceState } from './state';

/** The /__sim/ page: switches with buttons, the games and every live offer with its true price. */
export function marketplaceSections(state: MarketplaceState): PageSection[] {
  const { switches } = state;
  const buttons = [
    actionButton('Prices +10% (all)', '/__sim/prices/change', { percent: 10 }),
    actionButton('Prices -5% (every 2nd)', '/__sim/prices/change', { percent: -5, every: 2 }),
    actionButton('Remove every 3rd offer', '/__sim/offers/remove', { every: 3 }),
    actionButton('Layout: renamed classes', '/__sim/switches', { layout: 'renamed' }),
    actionButton('Layout: default', '/__sim/switches', { layout: 'default' }),
    actionButton('Slow pages (5 s)', '/__sim/switches', { delayMs: 5000 }),
    actionButton('Fast pages', '/__sim/switches', { delayMs: 0 }),
    actionButton('Block with 403', '/__sim/switches', { block: { status: 403 } }),
    actionButton('Block with 429 (Retry-After 30)', '/__sim/switches', { block: { status: 429, retryAfterSeconds: 30 } }),
    actionButton('Stop blocking', '/__sim/switches', { block: null }),
    actionButton('Reset everything', '/__sim/reset'),
  ];
  const offers = state.offers.map((offer) => ({ ...offer, priceUsd: (offer.priceCents / 100).toFixed(2) }));
  return [
    {
      title: 'Switches',
      html: `<p>Seed ${state.options.seed}, ${state.options.pageSize} offers a page. Layout <b>${escapeHtml(switches.layout)}</b>, delay ${switches.delayMs} ms, blocking <b>${escapeHtml(switches.block ? JSON.stringify(switches.block) : 'off')}</b>, price changes so far ${state.priceChanges}, offers removed ${state.removed.length}.</p>${buttons.join(' ')}<p>Default scrapeConfig: <a href="/__sim/scrape-config">/__sim/scrape-config</a></p>`,
    },
    {
      title: 'Games',
      html: htmlTable(state.games().map((game) => ({ ...game, url: `/categories/${game.slug}` })), ['name', 'slug', 'offers', 'pages', 'url']),
    },
    {
      title: `Live offers (${offers.length})`,
      html: htmlTable(offers, ['id', 'gameName', 'productName', 'attributeName', 'variationValue', 'priceUsd', 'sellerName', 'sellerLevel', 'sellerLocation', 'orderSuccessRate', 'totalSales']),
    },
  ];
}
