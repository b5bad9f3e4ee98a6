import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { TransactionService } from '../../database/transaction.service';
import { JobRunner } from '../../platform/jobs/job-runner';
import { Scheduler } from '../../platform/jobs/scheduler';
import { ImagesRepository } from './images.repository';
import { imageKeys } from './media-mappers';
import { MediaStorage } from './storage/media-storage';

const OWNER_KIND = /^[a-z][a-z_]{0,15}$/;
/** A full sweep catches anything a targeted one missed. */
export const FULL_SWEEP_CRON = '*/10 * * * *';
const SWEEP_BATCH = 200;
export const SWEEP_IMAGES = 'media.sweep';

/**
 * The image usage registry and its garbage collector. Modules that show images (guides, steps, wikis,
 * users, videos…) call `setUsage` with the full set an owner uses; an image that is in no media manager
 * and used by nothing is deleted (rows in a transaction, then its files). Collection is a job enqueued
 * with the usage change (so it runs only if that change commits), plus a full sweep every 10 minutes.
 */
@Injectable()
export class MediaUsageService implements OnModuleInit {
  private readonly logger = new Logger('MediaUsage');

  constructor(
    private readonly images: ImagesRepository,
    private readonly transactions: TransactionService,
    private readonly storage: MediaStorage,
    private readonly jobs: JobRunner,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ ids: number[] }>(SWEEP_IMAGES, ({ ids }) => this.collect(ids), { maxAttempts: 3 });
    this.scheduler.add({ name: 'media.full-sweep', every: FULL_SWEEP_CRON, run: () => this.collect(undefined) });
  }

  /** Replaces the set of images `ownerKind`/`ownerId` uses. Unknown image ids are ignored. */
  async setUsage(ownerKind: string, ownerId: number, imageIds: number[]): Promise<void> {
    if (!OWNER_KIND.test(ownerKind)) throw new Error(`Invalid media owner kind: ${ownerKind}`);
    const wanted = [...new Set(imageIds.filter((id) => Number.isInteger(id) && id > 0))];
    await this.transactions.run(async () => {
      const existing = await this.images.usageOf(ownerKind, ownerId);
      const removed = existing.filter((id) => !wanted.includes(id));
      const added = await this.images.existingIds(wanted.filter((id) => !existing.includes(id)));
      await this.images.removeUsage(ownerKind, ownerId, removed);
      await this.images.addUsage(ownerKind, ownerId, added);
      if (removed.length) await this.schedule(removed);
    });
  }

  /** Collects the given images once the current transaction commits, if they are orphans by then. */
  schedule(ids: number[]): Promise<void> {
    return this.jobs.enqueue(SWEEP_IMAGES, { ids });
  }

  /** Deletes the given images now if they are orphans (or every orphan when no ids are given). */
  sweep(ids?: number[]): Promise<void> {
    return this.collect(ids);
  }

  /** Runs every pending collection (tests, scripts). */
  flush(): Promise<void> {
    return this.jobs.drain();
  }

  private async collect(ids: number[] | undefined): Promise<void> {
    if (ids && !ids.length) return;
    for (let more = true; more;) {
      const candidates = await this.images.orphans(ids, SWEEP_BATCH);
      if (!candidates.length) return;
      await this.deleteImages(candidates.map((image) => image.imageid));
      more = ids === undefined && candidates.length === SWEEP_BATCH;
    }
  }

  /** Deletes orphan rows in one transaction, then their files. One that got used meanwhile is kept. */
  async deleteImages(ids: number[]): Promise<number[]> {
    const byId = new Map((await this.images.findByIds(ids)).map((image) => [image.imageid, image]));
    let deleted: number[];
    try {
      deleted = await this.transactions.run(() => this.images.deleteOrphans(ids));
    } catch {
      // A concurrent use of one of them (foreign key) fails the batch: retry one by one.
      deleted = [];
      for (const id of ids) {
        const one = await this.transactions.run(() => this.images.deleteOrphans([id])).catch(() => [] as number[]);
        deleted.push(...one);
      }
    }
    await this.removeFiles(deleted.map((id) => byId.get(id)).filter((image) => image !== undefined));
    return deleted;
  }

  async removeFiles(images: Parameters<typeof imageKeys>[0][]): Promise<void> {
    if (!images.length) return;
    await this.storage.delete(images.flatMap(imageKeys)).catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not remove the files of deleted images');
    });
  }
}
