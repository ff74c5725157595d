import { badRequest, conflict, isTransientError, notFound, type Logger } from '@bo/platform';
import { runKind, type RunContext, type Runs } from '@bo/platform/runs';
import { runRowId, type ScrapeConfig, type ScrapeJob } from '@bo/proto';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { productOf } from '../scraping/offer-fields';
import type { ListingReader } from '../scraping/listing-reader';
import { JOB_TRANSACTION, jobStore } from '../store/job-store';
import { productStore } from '../store/product-store';

interface PageInput {
  jobId: number;
  pageNumber: number;
}

/**
 * Scrape jobs (document 2 §4): a job is its pages, each page a `scrape-page` run, so any replica's
 * free worker takes the next page (the runs' leases), a page whose process died is read again by
 * another, and a cancel reaches a page at its next heartbeat. The job's status, counts and progress
 * events move in the transaction of the page that moves them.
 */
export class ScrapeJobs {
  readonly kind = runKind<PageInput, { productsFound: number; productsInserted: number } | { skipped: string }>('scrape-page', (run) => this.scrapePage(run));

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      runs: Runs;
      reader: ListingReader;
      priceChangeThresholdPercent: number;
      logger: Logger;
    },
  ) {}

  /** Starts a job of pages startPage..endPage of an enabled marketplace that has a scrape config. */
  async start(marketplaceId: number, pages: { startPage: number; endPage: number }, startedBy: string): Promise<ScrapeJob> {
    const marketplace = await this.deps.prisma.marketplace.findUnique({ where: { id: marketplaceId } });
    if (!marketplace) throw notFound('Marketplace not found');
    if (!marketplace.enabled) throw conflict(`${marketplace.name} is disabled: enable it to scrape it`);
    if (!marketplace.scrapeConfig) throw badRequest(`${marketplace.name} has no scrape config: add one to say how its pages are read`);
    if (!marketplace.paginationEnabled && pages.endPage > 1) throw badRequest(`${marketplace.name} has pagination off: only page 1 can be scraped`);
    const job = await this.deps.prisma.$transaction(async (tx) => {
      const created = await jobStore.create(tx, { marketplaceId, ...pages, startedBy });
      const pageRuns: { pageNumber: number; runId: string }[] = [];
      for (let pageNumber = pages.startPage; pageNumber <= pages.endPage; pageNumber++) pageRuns.push({ pageNumber, runId: await this.beginPage(tx, created.id, pageNumber, startedBy) });
      await jobStore.addPages(tx, created.id, pageRuns);
      return jobStore.view(tx, created.id);
    }, JOB_TRANSACTION);
    this.deps.runs.nudge();
    return job;
  }

  async cancel(id: number): Promise<ScrapeJob> {
    const outcome = await jobStore.cancel(this.deps.prisma, id);
    if (outcome === null) throw notFound('Job not found');
    if (outcome === 'ended') throw conflict('Only a pending or running job can be cancelled');
    await this.stopRuns(outcome.cancelledRuns);
    return outcome.job;
  }

  async resume(id: number, startedBy: string): Promise<ScrapeJob> {
    const outcome = await jobStore.resume(this.deps.prisma, id, (tx, pageNumber) => this.beginPage(tx, id, pageNumber, startedBy));
    if (outcome === null) throw notFound('Job not found');
    if (outcome === 'active') throw conflict('The job is still running');
    if (outcome === 'completed') throw conflict('The job has completed: start a new scrape instead');
    this.deps.runs.nudge();
    return outcome;
  }

  private async beginPage(tx: Prisma.TransactionClient, jobId: number, pageNumber: number, startedBy: string): Promise<string> {
    const { run } = await this.deps.runs.begin(this.kind, { jobId, pageNumber }, { startedBy }, tx);
    return runRowId(run.id);
  }

  /** The runs of the pages a job's end cancelled (a cancel, a layout failure): each stops at its next step. */
  private async stopRuns(runIds: string[]): Promise<void> {
    for (const runId of runIds) {
      // One that ended meanwhile cannot be cancelled, and need not be.
      await this.deps.runs.cancel(runId).catch(() => undefined);
    }
  }

  private async scrapePage(run: RunContext<PageInput>) {
    const { prisma, reader, logger } = this.deps;
    const page = { ...run.input, runId: runRowId(run.id) };
    const started = await jobStore.startPage(prisma, page);
    if (!started) return { skipped: 'the job is no longer running, or the page is done or another run’s' };
    const marketplace = await prisma.marketplace.findUnique({ where: { id: started.marketplaceId } });
    let counts = { found: 0, inserted: 0 };
    let ended: { cancelledRuns: string[] };
    try {
      if (!marketplace?.scrapeConfig) throw new Error('The marketplace or its scrape config was removed');
      const listing = await reader.read({ ...marketplace, scrapeConfig: marketplace.scrapeConfig as ScrapeConfig }, page.pageNumber, run.signal);
      if (listing.refused.length) logger.warn({ ...run.input, refused: listing.refused }, 'a scraped page asked for addresses the outbound guard refused');
      const products = listing.cards.map(productOf).filter((product) => product !== null);
      // Beyond the last page a listing is empty by design; nothing matching on a page that exists is the layout's doing.
      const pastTheEnd = listing.totalPages !== null && page.pageNumber > listing.totalPages;
      ended = await jobStore.completePage(prisma, { ...page, nothingMatched: listing.cards.length === 0 && !pastTheEnd }, async (tx) => {
        counts = await productStore.save(tx, marketplace.id, products, this.deps.priceChangeThresholdPercent);
        return counts;
      });
    } catch (error) {
      // Cancelled or the lease lost, or our own database away: the runs decide (the page is taken up
      // again, or its job's cancel recorded the rest). Only the marketplace's failure fails the page.
      if (run.signal.aborted || isTransientError(error)) throw error;
      ended = await jobStore.failPage(prisma, { ...page, error: (error as Error)?.message || 'Unknown error' });
      await this.stopRuns(ended.cancelledRuns);
      throw error;
    }
    run.progress({ current: 1, total: 1, counters: { productsFound: counts.found, productsInserted: counts.inserted } });
    await this.stopRuns(ended.cancelledRuns);
    return { productsFound: counts.found, productsInserted: counts.inserted };
  }
}
