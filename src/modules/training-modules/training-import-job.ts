import { stat } from 'node:fs/promises';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import type { JobContext } from '../../platform/jobs/job-runner';
import type { TrainingImportEntity } from './entities/training-import.entity';
import { TERMINAL_IMPORT_STATUSES, WORKING_IMPORT_STATUSES } from './import.state-machine';
import { extractOffThread, validateOffThread } from './package-thread';
import { PackageError, type PackageReport } from './package-types';
import { coalesced } from './progress-writes';
import { ImportStopped, TrainingImportMoves, type ProgressValues } from './training-import-moves';
import { TrainingImportCompleted } from './training-module.events';
import { TrainingModulesRepository } from './training-modules.repository';
import { sha256File } from './training-storage';
import { fetchToFile, FetchError } from './url-fetcher';

export const IMPORT_JOB = 'training.import';
export const importJobKey = (importid: number) => `training-import:${importid}`;

/** Extraction progress is written at most once per this many bytes. */
const PROGRESS_STEP = 256 * 1024;

/** A failure of the import with its code (the failure codes of docs/enterprise/training-modules.md). */
class ImportFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The import job (at most 2 at once on the platform runner, one per module through the `running_slot` unique
 * index): fetch a byUrl package, check it off the event loop, extract and install it into the module's draft.
 * Every failure is stored on the import.
 */
@Injectable()
export class TrainingImportJob {
  private readonly logger = new Logger('TrainingImports');
  /** Name resolution of byUrl downloads (default dns.lookup); tests answer hostile addresses through it. */
  lookup: LookupFunction | undefined;

  constructor(
    private readonly moves: TrainingImportMoves,
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The import job: fetch (byUrl), check, extract, install; every failure is stored on the import. */
  async run(importid: number, job?: JobContext): Promise<void> {
    this.moves.working.add(importid);
    try {
      const now = this.clock.nowSeconds();
      await this.repository.touchImports([importid], [...WORKING_IMPORT_STATUSES], now, this.moves.instance);
      await this.runImport(importid, job);
    } finally {
      this.moves.working.delete(importid);
    }
  }

  private async runImport(importid: number, job?: JobContext): Promise<void> {
    let row = await this.repository.findImport(importid);
    if (!row || TERMINAL_IMPORT_STATUSES.includes(row.status) || row.status === 'created') return;
    const controller = new AbortController();
    const file = this.moves.storage.incoming(importid);
    try {
      if (row.status === 'receiving') row = await this.fetch(row, file, controller, job);
      if (row.status === 'validating') {
        const size = (await stat(file)).size;
        // Only the descriptor is inflated here: every entry's bytes are counted and checked against the
        // size and ratio limits as they inflate during the extraction (one inflating pass, not two).
        const report = await validateOffThread(file, { signal: controller.signal, headersOnly: true });
        const preview = JSON.stringify({ manifest: report.manifest, files: report.files.slice(0, 10_000) });
        const moved = await this.moves.move(
          row,
          'extract',
          { percent: 70, warningsJson: JSON.stringify(report.warnings), previewJson: preview },
          'training_import.validated',
        );
        if (!moved) throw new ImportStopped();
        row = await this.moves.require(importid);
        await this.extractAndInstall(row, file, size, report, controller, job);
        return;
      }
      if (row.status === 'extracting') throw new ImportFailure('INTERRUPTED', 'The extraction did not complete');
    } catch (error) {
      controller.abort(new ImportStopped());
      await this.moves.storage.removePartial(row.moduleid, importid);
      if (error instanceof ImportStopped) return;
      const current = await this.repository.findImport(importid);
      if (!current || TERMINAL_IMPORT_STATUSES.includes(current.status)) return;
      const [code, message] =
        error instanceof PackageError || error instanceof FetchError || error instanceof ImportFailure
          ? [error.code, error.message]
          : ['IMPORT_FAILED', `The import failed: ${(error as Error)?.message ?? String(error)}`];
      if (!(error instanceof PackageError || error instanceof FetchError || error instanceof ImportFailure)) {
        this.logger.warn({ err: error, importid }, 'import failed');
      }
      await this.moves.fail(current, code, message);
    }
  }

  /** byUrl: downloads the package to `file`, then moves the import on to validating. */
  private async fetch(
    row: TrainingImportEntity,
    file: string,
    controller: AbortController,
    job?: JobContext,
  ): Promise<TrainingImportEntity> {
    const importid = row.importid;
    if (row.source !== 'url' || !row.url) throw new ImportFailure('INTERRUPTED', 'The upload did not complete');
    await this.moves.storage.prepareIncoming();
    const writes = coalesced((values: ProgressValues) =>
      this.moves.progressOrStop(importid, 'receiving', values, controller, job),
    );
    const { bytesPerSecond, windowSeconds } = this.config.training.downloadMinRate;
    const { bytes } = await fetchToFile(row.url, file, {
      allow: this.config.training.urlAllow,
      limit: this.config.training.uploadLimit,
      minRate: { bytesPerSecond, windowMs: windowSeconds * 1000 },
      signal: controller.signal,
      lookup: this.lookup,
      // Every chunk counts (a slow download shows its bytes); the writes are coalesced, 4 a second at most.
      onProgress: (done, total) => {
        const percent = total ? Math.min(59, Math.floor((60 * done) / total)) : 0;
        writes.push({ percent, bytesDone: done, bytesTotal: total });
      },
    });
    await writes.flush();
    const received = await this.moves.require(importid);
    const values = { percent: 60, bytesDone: bytes, bytesTotal: bytes };
    if (!(await this.moves.move(received, 'validate', values, 'training_import.received'))) throw new ImportStopped();
    return this.moves.require(importid);
  }

  private async extractAndInstall(
    row: TrainingImportEntity,
    file: string,
    size: number,
    report: PackageReport,
    controller: AbortController,
    job?: JobContext,
  ): Promise<void> {
    const importid = row.importid;
    const staging = this.moves.storage.staging(row.moduleid, importid);
    let reported = 0;
    const writes = coalesced((values: ProgressValues) =>
      this.moves.progressOrStop(importid, 'extracting', values, controller, job),
    );
    const total = Math.max(report.inflatedBytes, 1);
    // The archive's hash is read alongside the extraction (the file is read twice, but not one after the other).
    const [files, sha256] = await Promise.all([
      extractOffThread(file, staging, {
        signal: controller.signal,
        onProgress: (inflated) => {
          if (inflated - reported < PROGRESS_STEP) return;
          reported = inflated;
          writes.push({ percent: Math.min(99, 70 + Math.floor((29 * inflated) / total)), bytesDone: size });
        },
      }),
      sha256File(file),
    ]);
    await writes.flush();
    const version = await this.repository.findVersion(row.versionid);
    if (!version || version.status !== 'draft') {
      throw new ImportFailure('DRAFT_GONE', 'The draft was published or replaced while the package was imported');
    }
    const now = this.clock.nowSeconds();
    const completed = await this.transactions.run(async (tx) => {
      const current = await this.moves.require(importid);
      if (
        !(await this.moves.move(
          current,
          'complete',
          { percent: 100, bytesDone: size, finishedDate: now, runningSlot: null },
          'training_import.complete',
        ))
      ) {
        return null;
      }
      const updated = await this.repository.updateVersion(row.versionid, 'draft', {
        standard: report.manifest.standard,
        launchPath: report.manifest.launch_path,
        masteryScore: report.masteryScore ?? version.masteryScore,
        moveOn: report.moveOn,
        scoCount: Math.max(report.manifest.scos.length, 1),
        fileCount: files.length,
        packageBytes: size,
        packageSha256: sha256,
      });
      if (!updated)
        throw new ImportFailure('DRAFT_GONE', 'The draft was published or replaced while the package was imported');
      await this.moves.storage.install(row.moduleid, importid, row.versionid);
      const body = await this.moves.one(importid);
      await this.audit.record({
        action: 'training_module.version_package',
        entity: ['training_version', row.versionid],
        before: { package_sha256: version.packageSha256 },
        after: { package_sha256: sha256, importid },
      });
      tx.publish(TrainingImportCompleted(body));
      return body;
    });
    if (!completed) throw new ImportStopped();
  }
}
