import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionService } from '../../database/transaction.service';
import { ImagesRepository } from './images.repository';
import { imageKeys } from './media-mappers';
import { MediaStorage } from './storage/media-storage';

const OWNER_KIND = /^[a-z][a-z_]{0,15}$/;
/** After a usage change, orphans are collected this much later (the caller's transaction has committed by then). */
export const SWEEP_DELAY_MS = 500;
/** A full sweep catches anything a delayed one missed (e.g. a transaction that committed late). */
export const FULL_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 200;

/**
 * The image usage registry and its garbage collector. Modules that show images (guides, steps, wikis,
 * users, videos…) call `setUsage` with the full set an owner uses; an image that is in no media manager
 * and used by nothing is deleted (rows in a transaction, then its files).
 */
@Injectable()
export class MediaUsageService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MediaUsage');
  private readonly pending = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly images: ImagesRepository,
    private readonly transactions: TransactionService,
    private readonly storage: MediaStorage,
  ) {}

  onApplicationBootstrap(): void {
    this.interval = setInterval(() => void this.enqueue(undefined), FULL_SWEEP_INTERVAL_MS);
    this.interval.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
    await this.running;
  }

  /** Replaces the set of images `ownerKind`/`ownerId` uses. Unknown image ids are ignored. */
  async setUsage(ownerKind: string, ownerId: number, imageIds: number[], tx?: EntityManager): Promise<void> {
    if (!OWNER_KIND.test(ownerKind)) throw new Error(`Invalid media owner kind: ${ownerKind}`);
    const wanted = [...new Set(imageIds.filter((id) => Number.isInteger(id) && id > 0))];
    const apply = async (manager: EntityManager) => {
      const current = await this.images.usageOf(ownerKind, ownerId, manager);
      const removed = current.filter((id) => !wanted.includes(id));
      const added = await this.images.existingIds(
        wanted.filter((id) => !current.includes(id)),
        manager,
      );
      await this.images.removeUsage(ownerKind, ownerId, removed, manager);
      await this.images.addUsage(ownerKind, ownerId, added, manager);
      return removed;
    };
    const removed = tx ? await apply(tx) : await this.transactions.run(({ manager }) => apply(manager));
    if (removed.length) this.schedule(removed);
  }

  /** Collects the given images soon, if they are orphans by then. */
  schedule(ids: number[]): void {
    ids.forEach((id) => this.pending.add(id));
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.enqueue([...this.pending.values()]);
      this.pending.clear();
    }, SWEEP_DELAY_MS);
    this.timer.unref();
  }

  /** Deletes the given images now if they are orphans (or every orphan when no ids are given). */
  sweep(ids?: number[]): Promise<void> {
    return this.enqueue(ids);
  }

  /** Runs what is scheduled now and waits for every sweep (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      const ids = [...this.pending.values()];
      this.pending.clear();
      await this.enqueue(ids);
    }
    await this.running;
  }

  private enqueue(ids: number[] | undefined): Promise<void> {
    this.running = this.running
      .then(() => this.collect(ids))
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'media sweep failed');
      });
    return this.running;
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
  async deleteImages(ids: number[], tx?: EntityManager): Promise<number[]> {
    const byId = new Map((await this.images.findByIds(ids, tx)).map((image) => [image.imageid, image]));
    let deleted: number[];
    try {
      deleted = tx
        ? await this.images.deleteOrphans(ids, tx)
        : await this.transactions.run(({ manager }) => this.images.deleteOrphans(ids, manager));
    } catch (error) {
      if (tx) throw error;
      // A concurrent use of one of them (foreign key) fails the batch: retry one by one.
      deleted = [];
      for (const id of ids) {
        const one = await this.transactions
          .run(({ manager }) => this.images.deleteOrphans([id], manager))
          .catch(() => [] as number[]);
        deleted.push(...one);
      }
    }
    if (!tx) await this.removeFiles(deleted.map((id) => byId.get(id)).filter((image) => image !== undefined));
    return deleted;
  }

  async removeFiles(images: Parameters<typeof imageKeys>[0][]): Promise<void> {
    if (!images.length) return;
    await this.storage.delete(images.flatMap(imageKeys)).catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not remove the files of deleted images');
    });
  }
}
