import { escapeHtml as e } from '@bo/sim-kit';
import type { Game, Offer } from './catalogue';
import type { LayoutClasses } from './layout';

/** The public site's HTML (what a scraper sees), in the active layout's class names. */

const STYLE = `body{font-family:Arial,sans-serif;margin:0;background:#f3f4f8;color:#222}
header{background:#1c1f2b;color:#fff;padding:10px 24px}header a{color:#fff;text-decoration:none;font-weight:bold}
main{max-width:1100px;margin:0 auto;padding:16px}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:12px}
article{background:#fff;border-radius:8px;padding:12px;box-shadow:0 1px 2px #0002}nav{margin:16px 0}nav a{margin-right:8px}`;

function shell(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)} | G2G-style Marketplace</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><header><a href="/">GameMarket</a> &middot; buy game top-ups and items from sellers</header><main>${body}</main>${script}</body></html>`;
}

export function renderIndex(games: (Game & { offers: number })[]): string {
  const items = games.map((game) => `<li class="game" data-game-slug="${e(game.slug)}"><a href="/categories/${e(game.slug)}">${e(game.name)}</a> <span class="game-offers">${game.offers} offers</span></li>`);
  return shell('All games', `<h1>Games</h1><ul class="game-list">${items.join('')}</ul>`);
}

function card(offer: Offer, c: LayoutClasses): string {
  return `<article class="${c.card}" data-offer-id="${e(offer.id)}">
<div class="${c.game}">${e(offer.gameName)}</div>
<h3 class="${c.title}"><a class="${c.link}" href="/offers/${e(offer.id)}">${e(offer.productName)}</a></h3>
<div><span class="${c.attributeName}">${e(offer.attributeName)}</span>: <span class="${c.variation}">${e(offer.variationValue)}</span></div>
<div><strong><span class="${c.price}" data-price-for="${e(offer.id)}"></span></strong> <span class="${c.currency}">USD</span></div>
<div>Seller <span class="${c.sellerName}">${e(offer.sellerName)}</span> &middot; Level <span class="${c.sellerLevel}">${offer.sellerLevel}</span> &middot; <span class="${c.sellerLocation}">${e(offer.sellerLocation)}</span></div>
<div>Order success <span class="${c.successRate}">${offer.orderSuccessRate.toFixed(1)}%</span> &middot; <span class="${c.totalSales}">${offer.totalSales.toLocaleString('en-US')}</span> sold</div>
<div>Description <span class="${c.ratingDescription}">${offer.ratingDescription.toFixed(1)}</span> &middot; Service <span class="${c.ratingService}">${offer.ratingService.toFixed(1)}</span> &middot; Speed <span class="${c.ratingSpeed}">${offer.ratingSpeed.toFixed(1)}</span></div>
</article>`;
}

/**
 * Prices are not in the markup: an inline JSON blob (in cents) is turned into text by a script
 * shortly after load, the way a client-rendered store fills in live prices.
 */
function priceScript(offers: Offer[]): string {
  const blob = JSON.stringify({ priceCents: Object.fromEntries(offers.map((offer) => [offer.id, offer.priceCents])) }).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="__OFFER_STATE__">${blob}</script>
<script>
window.addEventListener('DOMContentLoaded', function () {
  var state = JSON.parse(document.getElementById('__OFFER_STATE__').textContent);
  setTimeout(function () {
    document.querySelectorAll('[data-price-for]').forEach(function (el) {
      var cents = state.priceCents[el.getAttribute('data-price-for')];
      if (cents !== undefined) el.textContent = (cents / 100).toFixed(2);
    });
  }, 50);
});
</script>`;
}

export function renderCategory(game: Game, listing: { offers: Offer[]; totalPages: number; total: number }, page: number, c: LayoutClasses): string {
  const base = `/categories/${e(game.slug)}`;
  const pages = Array.from({ length: listing.totalPages }, (_, i) => `<a class="${c.pageLink}" href="${base}?page=${i + 1}"${i + 1 === page ? ' aria-current="page"' : ''}>${i + 1}</a>`);
  const next = page < listing.totalPages ? `<a class="${c.next}" rel="next" href="${base}?page=${page + 1}">Next</a>` : '';
  const cards = listing.offers.length ? listing.offers.map((offer) => card(offer, c)).join('') : '<p class="no-results">No offers found.</p>';
  const body = `<h1>${e(game.name)}</h1><p class="result-count">${listing.total} offers</p>
<div class="grid">${cards}</div>
<nav class="${c.pagination}" data-total-pages="${listing.totalPages}" data-current-page="${page}">${pages.join('')}${next}</nav>`;
  return shell(`${game.name} offers, page ${page}`, body, priceScript(listing.offers));
}

export function renderOffer(offer: Offer, c: LayoutClasses): string {
  return shell(`${offer.productName} - ${offer.variationValue}`, `<p><a href="/categories/${e(offer.gameSlug)}">Back to ${e(offer.gameName)}</a></p>${card(offer, c)}`, priceScript([offer]));
}

export function renderNotFound(what: string): string {
  return shell('Not found', `<h1>Page not found</h1><p>${e(what)}</p>`);
}

/** What a bot-protection front answers when it blocks a client. */
export function renderBlocked(status: 403 | 429): string {
  return status === 429
    ? shell('Too many requests', '<h1>Error 1015</h1><p>You are being rate limited. Please wait and try again.</p>')
    : shell('Access denied', '<h1>Access denied</h1><p>Error 1020: this request was blocked by the site security policy.</p>');
}
