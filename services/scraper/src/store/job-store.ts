import { LAYOUT_CHANGED_ERROR, type ScrapeJob as JobView, type ScrapeJobStatus, type ScrapePageProgress, type ScrapeProgressEventName } from '@bo/proto';
import type { Prisma, PrismaClient, ScrapeJob, ScrapePage } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** Document 2 §2.3 (issue 22): nothing matched on this many pages in a row fails the job. */
export const NOTHING_MATCHED_IN_A_ROW = 3;

const isActive = (status: string) => status === 'pending' || status === 'in_progress';

/**
 * A job's transactions wait for its lock (pages finishing at once) and store a page of products, or
 * begin hundreds of page runs: on a loaded machine more than Prisma's 2 s wait and 5 s run.
 */
export const JOB_TRANSACTION = { maxWait: 10_000, timeout: 30_000 };

/** The event a job's end is streamed as (document 2 §4). */
export const ENDING_EVENT_OF = { completed: 'job_complete', failed: 'job_failed', cancelled: 'job_cancelled' } as const satisfies Record<string, ScrapeProgressEventName>;

/** A job that ended: its view, and the runs of the pages it cancelled (to stop them once this commits). */
export interface Ended {
  job: JobView;
  cancelledRuns: string[];
}

export const jobView = (row: ScrapeJob & { marketplace: { name: string } }): JobView => ({
  id: row.id,
  marketplaceId: row.marketplaceId,
  marketplaceName: row.marketplace.name,
  status: row.status as ScrapeJobStatus,
  currentPage: row.currentPage,
  totalPages: row.totalPages,
  startPage: row.startPage,
  endPage: row.endPage,
  totalProducts: row.totalProducts,
  error: row.error,
  startedAt: row.startedAt?.toISOString() ?? null,
  completedAt: row.completedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const pageProgress = (row: ScrapePage): ScrapePageProgress => ({
  jobId: row.jobId,
  pageNumber: row.pageNumber,
  status: row.status as ScrapeJobStatus,
  productsFound: row.productsFound,
  productsInserted: row.productsInserted,
  error: row.error,
});

/** The job's row under a lock: every change to a job and its pages is made holding it, so two pages finishing at once count right. */
async function lockJob(tx: Tx, id: number): Promise<ScrapeJob | null> {
  const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "scraper".scrape_jobs WHERE id = ${id} FOR UPDATE`;
  return locked ? tx.scrapeJob.findUnique({ where: { id } }) : null;
}

async function emit(tx: Tx, jobId: number, type: ScrapeProgressEventName, data: unknown): Promise<void> {
  await tx.scrapeJobEvent.create({ data: { jobId, type, data: data as Prisma.InputJsonValue } });
}

async function viewOf(tx: Tx | PrismaClient, id: number): Promise<JobView> {
  return jobView(await tx.scrapeJob.findUniqueOrThrow({ where: { id }, include: { marketplace: { select: { name: true } } } }));
}

/** Ends a job (completed, failed or cancelled) with its event; the pages still waiting or running are cancelled with it. */
async function finish(tx: Tx, id: number, status: 'completed' | 'failed' | 'cancelled', error: string | null): Promise<Ended> {
  await tx.scrapeJob.update({ where: { id }, data: { status, error, completedAt: new Date() } });
  const open = await tx.scrapePage.findMany({ where: { jobId: id, status: { in: ['pending', 'in_progress'] } }, select: { id: true, runId: true } });
  await tx.scrapePage.updateMany({ where: { id: { in: open.map((page) => page.id) } }, data: { status: 'cancelled', updatedAt: new Date() } });
  const job = await viewOf(tx, id);
  await emit(tx, id, ENDING_EVENT_OF[status], job);
  return { job, cancelledRuns: open.map((page) => page.runId) };
}

/** The page of a job as this run may move it: its own (a resume gives a page a new run), and not ended. */
async function ownPage(tx: Tx, page: { jobId: number; pageNumber: number; runId: string }): Promise<ScrapePage | null> {
  const row = await tx.scrapePage.findUnique({ where: { jobId_pageNumber: { jobId: page.jobId, pageNumber: page.pageNumber } } });
  return row && row.runId === page.runId && isActive(row.status) ? row : null;
}

/**
 * After a page ends: the job's counts from its pages, and its end when every page has ended (failed
 * when any page failed), or at once when the selectors matched nothing on NOTHING_MATCHED_IN_A_ROW
 * pages in a row.
 */
async function settle(tx: Tx, job: ScrapeJob): Promise<{ cancelledRuns: string[] }> {
  const pages = await tx.scrapePage.findMany({ where: { jobId: job.id }, orderBy: { pageNumber: 'asc' } });
  const completed = pages.filter((page) => page.status === 'completed');
  await tx.scrapeJob.update({
    where: { id: job.id },
    data: { currentPage: completed.length, totalProducts: completed.reduce((sum, page) => sum + page.productsFound, 0) },
  });
  let inARow = 0;
  for (const page of pages) {
    inARow = page.status === 'completed' && page.nothingMatched ? inARow + 1 : 0;
    if (inARow >= NOTHING_MATCHED_IN_A_ROW) return finish(tx, job.id, 'failed', LAYOUT_CHANGED_ERROR);
  }
  if (pages.some((page) => isActive(page.status))) return { cancelledRuns: [] };
  const failed = pages.filter((page) => page.status === 'failed');
  const error = failed.length ? `${failed.length} of ${pages.length} pages failed (page ${failed[0].pageNumber}: ${failed[0].error ?? 'Unknown error'})` : null;
  return finish(tx, job.id, failed.length ? 'failed' : 'completed', error);
}

export const jobStore = {
  /** A new pending job of pages startPage..endPage; its pages are added with their runs (addPages). */
  async create(tx: Tx, job: { marketplaceId: number; startPage: number; endPage: number; startedBy: string }): Promise<ScrapeJob> {
    return tx.scrapeJob.create({ data: { ...job, totalPages: job.endPage - job.startPage + 1 } });
  },

  /** Pages of a job (new, or not completed on a resume) waiting for their runs. */
  async addPages(tx: Tx, jobId: number, pages: { pageNumber: number; runId: string }[]): Promise<void> {
    for (const page of pages) {
      await tx.scrapePage.upsert({
        where: { jobId_pageNumber: { jobId, pageNumber: page.pageNumber } },
        create: { jobId, pageNumber: page.pageNumber, runId: page.runId },
        update: { runId: page.runId, status: 'pending', error: null, productsFound: 0, productsInserted: 0, nothingMatched: false, updatedAt: new Date() },
      });
    }
  },

  async get(prisma: PrismaClient, id: number): Promise<JobView | null> {
    const row = await prisma.scrapeJob.findUnique({ where: { id }, include: { marketplace: { select: { name: true } } } });
    return row ? jobView(row) : null;
  },

  async view(prisma: PrismaClient | Tx, id: number): Promise<JobView> {
    return viewOf(prisma, id);
  },

  async list(prisma: PrismaClient, limit: number): Promise<JobView[]> {
    const rows = await prisma.scrapeJob.findMany({ orderBy: { id: 'desc' }, take: limit, include: { marketplace: { select: { name: true } } } });
    return rows.map(jobView);
  },

  /**
   * A page's run begins it: the job goes in progress with its first page (job_start), the page too
   * (page_start). Null when the job is no longer running (cancelled, failed), or the page is done or
   * is another run's (a resume gave it a new one): the page is not read.
   */
  async startPage(prisma: PrismaClient, page: { jobId: number; pageNumber: number; runId: string }): Promise<{ marketplaceId: number } | null> {
    return prisma.$transaction(async (tx) => {
      const job = await lockJob(tx, page.jobId);
      if (!job || !isActive(job.status) || !(await ownPage(tx, page))) return null;
      if (job.status === 'pending') {
        await tx.scrapeJob.update({ where: { id: job.id }, data: { status: 'in_progress', startedAt: job.startedAt ?? new Date(), error: null } });
        await emit(tx, job.id, 'job_start', await viewOf(tx, job.id));
      }
      const row = await tx.scrapePage.update({ where: { jobId_pageNumber: { jobId: page.jobId, pageNumber: page.pageNumber } }, data: { status: 'in_progress', updatedAt: new Date() } });
      await emit(tx, job.id, 'page_start', pageProgress(row));
      return { marketplaceId: job.marketplaceId };
    }, JOB_TRANSACTION);
  },

  /**
   * A page read: `store` saves its products in the same transaction as the page's end, so a page
   * counts as completed exactly when its products are stored. Nothing is stored for a job that
   * ended meanwhile (cancelled, or failed by another page), or a page that is no longer this run's.
   * page_complete carries the job's pages done and products so far with the page's own counts.
   */
  async completePage(
    prisma: PrismaClient,
    page: { jobId: number; pageNumber: number; runId: string; nothingMatched: boolean },
    store: (tx: Tx) => Promise<{ found: number; inserted: number }>,
  ): Promise<{ stored: boolean; cancelledRuns: string[] }> {
    return prisma.$transaction(async (tx) => {
      const job = await lockJob(tx, page.jobId);
      if (!job || !isActive(job.status) || !(await ownPage(tx, page))) return { stored: false, cancelledRuns: [] };
      const counts = await store(tx);
      const row = await tx.scrapePage.update({
        where: { jobId_pageNumber: { jobId: page.jobId, pageNumber: page.pageNumber } },
        data: { status: 'completed', productsFound: counts.found, productsInserted: counts.inserted, nothingMatched: page.nothingMatched, error: null, updatedAt: new Date() },
      });
      const eventAt = (await tx.scrapeJobEvent.create({ data: { jobId: job.id, type: 'page_complete', data: {} } })).id;
      const settled = await settle(tx, job);
      const { currentPage, totalProducts } = await tx.scrapeJob.findUniqueOrThrow({ where: { id: job.id } });
      // Written where it happened (before the job's end), with the job's counts as they now are.
      await tx.scrapeJobEvent.update({ where: { id: eventAt }, data: { data: { ...pageProgress(row), currentPage, totalProducts } } });
      return { stored: true, ...settled };
    }, JOB_TRANSACTION);
  },

  /** A page that could not be read after its tries. */
  async failPage(prisma: PrismaClient, page: { jobId: number; pageNumber: number; runId: string; error: string }): Promise<{ cancelledRuns: string[] }> {
    return prisma.$transaction(async (tx) => {
      const job = await lockJob(tx, page.jobId);
      if (!job || !isActive(job.status) || !(await ownPage(tx, page))) return { cancelledRuns: [] };
      const row = await tx.scrapePage.update({ where: { jobId_pageNumber: { jobId: page.jobId, pageNumber: page.pageNumber } }, data: { status: 'failed', error: page.error, updatedAt: new Date() } });
      await emit(tx, page.jobId, 'page_failed', pageProgress(row));
      return settle(tx, job);
    }, JOB_TRANSACTION);
  },

  /** Cancels a pending or running job; null when there is none, 'ended' when it had already ended. */
  async cancel(prisma: PrismaClient, id: number): Promise<Ended | 'ended' | null> {
    return prisma.$transaction(async (tx) => {
      const job = await lockJob(tx, id);
      if (!job) return null;
      if (!isActive(job.status)) return 'ended';
      return finish(tx, id, 'cancelled', null);
    }, JOB_TRANSACTION);
  },

  /**
   * A failed or cancelled job goes back to pending with the pages it had not completed (or that
   * matched nothing), each given a
   * new run by `begin` in the same transaction. Null when there is none, 'active' when it has not ended.
   */
  async resume(prisma: PrismaClient, id: number, begin: (tx: Tx, pageNumber: number) => Promise<string>): Promise<JobView | 'active' | 'completed' | null> {
    return prisma.$transaction(async (tx) => {
      const job = await lockJob(tx, id);
      if (!job) return null;
      if (isActive(job.status)) return 'active';
      if (job.status === 'completed') return 'completed';
      // A page that matched nothing is read again: the layout may have been mended (or the config fixed) since.
      const done = new Set((await tx.scrapePage.findMany({ where: { jobId: id, status: 'completed', nothingMatched: false }, select: { pageNumber: true } })).map((page) => page.pageNumber));
      const pages: { pageNumber: number; runId: string }[] = [];
      for (let pageNumber = job.startPage; pageNumber <= job.endPage; pageNumber++) {
        if (!done.has(pageNumber)) pages.push({ pageNumber, runId: await begin(tx, pageNumber) });
      }
      await this.addPages(tx, id, pages);
      await tx.scrapeJob.update({ where: { id }, data: { status: 'pending', error: null, completedAt: null } });
      return viewOf(tx, id);
    }, JOB_TRANSACTION);
  },

  /**
   * What a progress stream starts from, read at one moment: the job, and the number of the last
   * event so far (a new stream sends what comes after it).
   */
  async snapshot(prisma: PrismaClient, id: number): Promise<{ job: JobView; lastEventId: bigint } | null> {
    return prisma.$transaction(
      async (tx) => {
        const row = await tx.scrapeJob.findUnique({ where: { id }, include: { marketplace: { select: { name: true } } } });
        if (!row) return null;
        const last = await tx.scrapeJobEvent.findFirst({ where: { jobId: id }, orderBy: { id: 'desc' }, select: { id: true } });
        return { job: jobView(row), lastEventId: last?.id ?? 0n };
      },
      { isolationLevel: 'RepeatableRead' },
    );
  },

  async eventsAfter(prisma: PrismaClient, jobId: number, afterId: bigint): Promise<{ id: bigint; type: ScrapeProgressEventName; data: unknown }[]> {
    const rows = await prisma.scrapeJobEvent.findMany({ where: { jobId, id: { gt: afterId } }, orderBy: { id: 'asc' }, take: 500 });
    return rows.map((row) => ({ id: row.id, type: row.type as ScrapeProgressEventName, data: row.data }));
  },
};
