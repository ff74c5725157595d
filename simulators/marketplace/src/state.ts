import { games, generateOffers, type Game, type Offer } from './catalogue';
import type { LayoutName } from './layout';

export interface MarketplaceOptions {
  /** Same seed, same catalogue. */
  seed: number;
  pageSize: number;
  /** Sellers per variation, times this (1: the site the tests know). */
  sellersScale: number;
}

export interface Blocking {
  status: 403 | 429;
  /** Sent as Retry-After on 429. */
  retryAfterSeconds: number;
  /** Blocks this many page requests, then lets them through; forever when absent. */
  times?: number;
}

export interface Switches {
  layout: LayoutName;
  /** Every site page waits this long before answering. */
  delayMs: number;
  block: Blocking | null;
}

const DEFAULT_SWITCHES: Switches = { layout: 'default', delayMs: 0, block: null };

/** The live site: the seeded catalogue as changed by the /__sim/ switches. */
export class MarketplaceState {
  readonly options: MarketplaceOptions;
  offers: Offer[] = [];
  removed: Offer[] = [];
  switches: Switches = { ...DEFAULT_SWITCHES };
  /** How often prices were changed since the seed, for the control page. */
  priceChanges = 0;

  constructor(options: Partial<MarketplaceOptions> = {}) {
    this.options = { seed: options.seed ?? 20240601, pageSize: options.pageSize ?? 8, sellersScale: options.sellersScale ?? 1 };
    this.reset();
  }

  reset(): void {
    this.offers = generateOffers(this.options.seed, this.options.sellersScale);
    this.removed = [];
    this.switches = { ...DEFAULT_SWITCHES };
    this.priceChanges = 0;
  }

  games(): (Game & { offers: number; pages: number })[] {
    return games.map((game) => {
      const count = this.offersOf(game.slug).length;
      return { ...game, offers: count, pages: Math.max(1, Math.ceil(count / this.options.pageSize)) };
    });
  }

  game(slug: string): Game | undefined {
    return games.find((game) => game.slug === slug);
  }

  offersOf(slug: string): Offer[] {
    return this.offers.filter((offer) => offer.gameSlug === slug);
  }

  /** One listing page (1-based); beyond the last page it is empty, like the real site. */
  page(slug: string, page: number): { offers: Offer[]; totalPages: number; total: number } {
    const all = this.offersOf(slug);
    const size = this.options.pageSize;
    return { offers: all.slice((page - 1) * size, page * size), totalPages: Math.max(1, Math.ceil(all.length / size)), total: all.length };
  }

  offer(id: string): Offer | undefined {
    return this.offers.find((offer) => offer.id === id);
  }

  /**
   * Changes the price of every `every`-th offer (of one game, or all) by `percent`, rounded to the
   * cent. Deterministic: the same calls give the same prices.
   */
  changePrices(percent: number, every = 1, gameSlug?: string): Offer[] {
    const changed = this.select(every, gameSlug);
    for (const offer of changed) offer.priceCents = Math.max(1, Math.round(offer.priceCents * (1 + percent / 100)));
    this.priceChanges += 1;
    return changed;
  }

  /** Takes offers off the site: the given ids, or every `every`-th offer (of one game, or all). */
  removeOffers(selection: { ids?: string[]; every?: number; gameSlug?: string }): Offer[] {
    const gone = selection.ids ? this.offers.filter((offer) => selection.ids!.includes(offer.id)) : this.select(selection.every ?? 3, selection.gameSlug);
    this.offers = this.offers.filter((offer) => !gone.includes(offer));
    this.removed.push(...gone);
    return gone;
  }

  setSwitches(change: Partial<Switches>): Switches {
    this.switches = { ...this.switches, ...change };
    return this.switches;
  }

  /** The blocking answer for this page request, if the block switch is on; counts down `times`. */
  takeBlock(): Blocking | null {
    const block = this.switches.block;
    if (!block) return null;
    if (block.times !== undefined) {
      const left = block.times - 1;
      this.switches.block = left > 0 ? { ...block, times: left } : null;
    }
    return block;
  }

  private select(every: number, gameSlug?: string): Offer[] {
    const pool = gameSlug ? this.offersOf(gameSlug) : this.offers;
    return pool.filter((_offer, index) => index % every === 0);
  }
}
