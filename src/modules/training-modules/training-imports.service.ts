import { createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import type { LookupFunction } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { ApiException, notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { JobRunner, type JobContext } from '../../platform/jobs/job-runner';
import { Scheduler } from '../../platform/jobs/scheduler';
import type { ImportPreviewDto, TrainingImportDto } from './dto/training-response.dto';
import type { ImportStatus, TrainingImportEntity } from './entities/training-import.entity';
import {
  importTransition,
  TERMINAL_IMPORT_STATUSES,
  WORKING_IMPORT_STATUSES,
  type ImportAction,
} from './import.state-machine';
import { instanceStarted, instanceStopped, ownerGone } from './import-owner';
import { extractOffThread, validateOffThread } from './package-thread';
import { PackageError, type PackageReport } from './package-types';
import { TrainingImportCompleted, TrainingImportFailed } from './training-module.events';
import { toImportDto, toModuleDto, toPreviewDto } from './training-module.mapper';
import { TrainingModulesRepository } from './training-modules.repository';
import { TrainingPlayerService } from './training-player.service';
import { sha256File, TrainingStorage } from './training-storage';
import { coalesced } from './progress-writes';
import { prefixed, readMagic, refuseBody } from './upload-body';
import { fetchToFile, FetchError, refusalOf } from './url-fetcher';

export const IMPORT_JOB = 'training.import';

/** Thrown into a running import's streams when it is cancelled (or has moved on) meanwhile. */
export class ImportStopped extends Error {
  constructor() {
    super('The import was cancelled');
    this.name = 'ImportStopped';
  }
}

/** A failure of the import with its code (the failure codes of docs/enterprise/training-modules.md). */
class ImportFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];
/** A local file header, or the end record of an empty archive. */
const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
/** Extraction progress is written at most once per this many bytes. */
const PROGRESS_STEP = 256 * 1024;
/** How often an instance marks the imports it works on as alive. */
const HEARTBEAT_MS = 30_000;
/** A working import not marked alive for this long (and not waiting for its job) was interrupted. */
export const SILENT_AFTER_SECONDS = 120;
const importJobKey = (importid: number) => `training-import:${importid}`;

/**
 * Imports (docs/enterprise/training-modules.md, T5, T8-T13): packages received by upload (streamed to disk) or fetched
 * by URL, then checked and extracted by a job on the platform runner (at most 2 at once, one per module through the
 * `running_slot` unique index). Every move is a conditional update with its audit row; completion and failure publish
 * events. Cancelling or failing deletes partial files. The instance working an import marks it alive (`heartbeat_date`,
 * `owner_instance`) with every move and progress and every 30 s. An import whose instance stopped or died fails with
 * INTERRUPTED: at boot when that instance's process is known to be gone (it ran on this host), and otherwise once it
 * has been silent for 2 minutes and its job does not wait in the queue (checked at boot and every minute), so imports
 * that another live instance works on are left alone.
 */
@Injectable()
export class TrainingImportsService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TrainingImports');
  readonly storage: TrainingStorage;
  /** Name resolution of byUrl downloads (default dns.lookup); tests answer hostile addresses through it. */
  lookup: LookupFunction | undefined;
  /** Uploads being received by this instance, so that a cancel stops them at once. */
  private readonly receiving = new Map<number, AbortController>();
  /** Imports whose job runs in this instance. */
  private readonly working = new Set<number>();
  /** This instance, as imports record who works on them. */
  private readonly instance: string;

  constructor(
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    private readonly scheduler: Scheduler,
    private readonly player: TrainingPlayerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.storage = new TrainingStorage(config.training.dir);
    this.instance = jobs.instanceId;
  }

  onModuleInit(): void {
    instanceStarted(this.instance);
    this.jobs.register<{ importid: number }>(IMPORT_JOB, (payload, job) => this.run(payload.importid, job), {
      concurrency: 2,
      maxAttempts: 1,
      leaseMs: 15 * 60_000,
    });
    this.scheduler.add({
      name: 'training-imports.heartbeat',
      every: HEARTBEAT_MS,
      lockMs: false,
      run: () => this.heartbeat(),
    });
    this.scheduler.add({
      name: 'training-imports.interrupted',
      every: 60_000,
      run: () => this.failInterrupted().then(() => undefined),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await requestContext.run(backgroundContext('training-imports'), async () => {
      await this.failOrphaned();
      await this.failInterrupted();
    });
  }

  onApplicationShutdown(): void {
    instanceStopped(this.instance);
  }

  /** Marks the imports this instance receives or runs as alive. */
  async heartbeat(): Promise<void> {
    const mine = [...this.receiving.keys(), ...this.working];
    await this.repository.touchImports(mine, [...WORKING_IMPORT_STATUSES], this.clock.nowSeconds(), this.instance);
  }

  /**
   * Imports whose instance is known to be gone (killed on this host, then restarted) fail with INTERRUPTED at
   * once, without waiting for their heartbeat to fall silent; their job, if it still waits, runs them instead.
   */
  async failOrphaned(): Promise<number> {
    let count = 0;
    for (const row of await this.repository.importsIn([...WORKING_IMPORT_STATUSES])) {
      if (!ownerGone(row.ownerInstance)) continue;
      if (await this.jobs.isQueued(importJobKey(row.importid))) continue;
      if (await this.fail(row, 'INTERRUPTED', 'The service stopped while the import was running')) count += 1;
    }
    return count;
  }

  /**
   * Imports left working by a stopped process (silent for SILENT_AFTER_SECONDS, their job not waiting in the
   * queue) fail with INTERRUPTED, and their partial files go.
   */
  async failInterrupted(): Promise<number> {
    let count = 0;
    const before = this.clock.nowSeconds() - SILENT_AFTER_SECONDS;
    for (const row of await this.repository.silentImports([...WORKING_IMPORT_STATUSES], before)) {
      if (this.receiving.has(row.importid) || this.working.has(row.importid)) continue;
      if (await this.jobs.isQueued(importJobKey(row.importid))) continue;
      if (await this.fail(row, 'INTERRUPTED', 'The service stopped while the import was running')) count += 1;
    }
    return count;
  }

  // ------------------------------------------------------------------ reads

  async require(importid: number): Promise<TrainingImportEntity> {
    const row = await this.repository.findImport(importid);
    if (!row) throw notFound('Import');
    return row;
  }

  async one(importid: number): Promise<TrainingImportDto> {
    return toImportDto(await this.require(importid));
  }

  /** T5. */
  async list(
    moduleid: number,
    page: { order: 'ASC' | 'DESC'; offset: number; limit: number },
  ): Promise<TrainingImportDto[]> {
    if (!(await this.repository.findModule(moduleid))) throw notFound('Module');
    return (await this.repository.imports(moduleid, page)).map(toImportDto);
  }

  /** T13: what a complete import brought, with a preview launch of the draft. */
  async preview(importid: number, caller: AuthenticatedUser): Promise<ImportPreviewDto> {
    const row = await this.require(importid);
    if (row.status !== 'complete') throw new RevisionConflictException(toImportDto(row));
    const launch = await this.player.launch(row.moduleid, row.versionid, caller, { preview: true });
    return toPreviewDto(row, launch.launch_url);
  }

  // ------------------------------------------------------------------ T8, T11

  /** T8: a new import into the module's draft. */
  async create(moduleid: number, caller: AuthenticatedUser): Promise<TrainingImportDto> {
    const importid = await this.transactions.run(async () => {
      const module = await this.repository.findModule(moduleid);
      if (!module) throw notFound('Module');
      if (module.draftVersionid === null) {
        const versions = await this.repository.versions([module.currentVersionid]);
        throw new RevisionConflictException(toModuleDto(module, versions, true));
      }
      const running = await this.repository.runningImport(moduleid);
      if (running) throw new RevisionConflictException(toImportDto(running));
      const now = this.clock.nowSeconds();
      let id: number;
      try {
        id = await this.repository.insertImport({
          moduleid,
          versionid: module.draftVersionid,
          source: null,
          status: 'created',
          runningSlot: 1,
          percent: 0,
          bytesDone: 0,
          bytesTotal: null,
          warningsJson: '[]',
          errorCode: null,
          errorMessage: null,
          url: null,
          previewJson: null,
          userid: caller.userid,
          createdDate: now,
          finishedDate: null,
          heartbeatDate: null,
          ownerInstance: null,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await this.repository.runningImport(moduleid);
        throw winner ? new RevisionConflictException(toImportDto(winner)) : error;
      }
      const created = await this.require(id);
      await this.audit.record({
        action: 'training_import.create',
        entity: ['training_import', id],
        after: toImportDto(created),
      });
      return id;
    });
    return this.one(importid);
  }

  /** T11. */
  async cancel(importid: number): Promise<TrainingImportDto> {
    for (let tries = 0; tries < 5; tries += 1) {
      const row = await this.require(importid);
      if (TERMINAL_IMPORT_STATUSES.includes(row.status)) throw new RevisionConflictException(toImportDto(row));
      const moved = await this.move(
        row,
        'cancel',
        { finishedDate: this.clock.nowSeconds(), runningSlot: null },
        'training_import.cancel',
      );
      if (!moved) continue;
      this.receiving.get(importid)?.abort(new ImportStopped());
      await this.storage.removePartial(row.moduleid, importid);
      return this.one(importid);
    }
    throw new RevisionConflictException(await this.one(importid));
  }

  // ------------------------------------------------------------------ T9

  /** T9: checks the URL's text (422 at once), then a job fetches it. */
  async startByUrl(importid: number, url: string): Promise<TrainingImportDto> {
    const refusal = refusalOf(url, this.config.training.urlAllow);
    if (refusal) throw unprocessable(refusal, 'url');
    const row = await this.require(importid);
    if (row.status !== 'created') throw new RevisionConflictException(toImportDto(row));
    const moved = await this.transactions.run(async () => {
      const ok = await this.move(row, 'receive', { source: 'url', url }, 'training_import.start');
      if (ok) await this.jobs.enqueue(IMPORT_JOB, { importid }, { uniqueKey: importJobKey(importid) });
      return ok;
    });
    if (!moved) throw new RevisionConflictException(await this.one(importid));
    return this.one(importid);
  }

  // ------------------------------------------------------------------ T10

  /**
   * T10: streams a multipart `file` or a raw ZIP body to `incoming/{importid}.zip` (never the whole
   * package in memory), then queues the check. 415 for a body that is not a ZIP (by type or by its first
   * bytes, before anything changes); 413 past TRAINING_UPLOAD_LIMIT (the import fails). A refused body is not
   * read on: its answer closes the connection.
   */
  async startByUpload(importid: number, request: FastifyRequest): Promise<TrainingImportDto> {
    const limit = this.config.training.uploadLimit;
    const row = await this.require(importid);
    if (row.status !== 'created') {
      refuseBody(request);
      throw new RevisionConflictException(toImportDto(row));
    }
    const declared = Number(request.headers['content-length']);
    const multipart = request.isMultipart?.() ?? false;
    if (Number.isFinite(declared) && declared > limit + (multipart ? 64 * 1024 : 0)) {
      refuseBody(request);
      throw tooLarge(limit);
    }
    const source = await this.uploadStream(request, limit, multipart);
    const first = await readMagic(source.stream);
    if (!ZIP_MAGIC.some((magic) => first.head.subarray(0, 4).equals(magic))) {
      refuseBody(request, source.stream);
      throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'The file is not a ZIP archive');
    }
    const total = multipart || !Number.isFinite(declared) ? null : declared;
    if (!(await this.move(row, 'receive', { source: 'upload', bytesTotal: total }, 'training_import.start'))) {
      refuseBody(request, source.stream);
      throw new RevisionConflictException(await this.one(importid));
    }
    const controller = new AbortController();
    this.receiving.set(importid, controller);
    const file = this.storage.incoming(importid);
    let bytes = 0;
    const writes = coalesced((values: ProgressValues) =>
      this.progressOrStop(importid, 'receiving', values, controller),
    );
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        if (bytes > limit) return done(tooLarge(limit));
        const percent = total ? Math.min(59, Math.floor((60 * bytes) / total)) : 0;
        writes.push({ percent, bytesDone: bytes });
        done(null, chunk);
      },
    });
    try {
      await this.storage.prepareIncoming();
      await pipeline(Readable.from(prefixed(first.head, first.rest)), counter, createWriteStream(file), {
        signal: controller.signal,
      });
      await writes.flush();
      if (source.truncated()) throw tooLarge(limit);
    } catch (error) {
      await writes.flush().catch(() => undefined);
      refuseBody(request, source.stream);
      this.receiving.delete(importid);
      await this.storage.removePartial(row.moduleid, importid);
      const current = await this.require(importid);
      if (current.status === 'cancelled') throw new RevisionConflictException(toImportDto(current));
      const tooBig = error instanceof ApiException && error.getStatus() === 413;
      await this.fail(
        current,
        tooBig ? 'ZIP_TOO_LARGE' : 'UPLOAD_FAILED',
        tooBig ? (error as Error).message : `The upload did not complete: ${(error as Error).message}`,
      );
      throw tooBig
        ? error
        : new ApiException(HttpStatus.BAD_REQUEST, `The upload did not complete: ${(error as Error).message}`);
    }
    this.receiving.delete(importid);
    const stored = await this.transactions.run(async () => {
      const current = await this.require(importid);
      const ok = await this.move(
        current,
        'validate',
        { percent: 60, bytesDone: bytes, bytesTotal: bytes },
        'training_import.received',
      );
      if (ok) await this.jobs.enqueue(IMPORT_JOB, { importid }, { uniqueKey: importJobKey(importid) });
      return ok;
    });
    if (!stored) {
      await this.storage.removePartial(row.moduleid, importid);
      throw new RevisionConflictException(await this.one(importid));
    }
    return this.one(importid);
  }

  private async uploadStream(
    request: FastifyRequest,
    limit: number,
    multipart: boolean,
  ): Promise<{ stream: Readable; truncated: () => boolean }> {
    if (multipart) {
      let part;
      try {
        part = await request.file({ limits: { fileSize: limit + 1, files: 1 }, throwFileSizeLimit: false });
      } catch (error) {
        throw unprocessable(`The multipart body could not be read: ${(error as Error).message}`, 'file');
      }
      if (!part || part.fieldname !== 'file') {
        refuseBody(request, part?.file);
        throw unprocessable('The form has no file: send it in the field "file"', 'file');
      }
      const file = part.file;
      return { stream: file, truncated: () => Boolean((file as { truncated?: boolean }).truncated) };
    }
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!ZIP_TYPES.includes(type) || !(request.body instanceof Readable)) {
      refuseBody(request);
      throw new ApiException(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        'Send the package as application/zip, or as a multipart form with the field "file"',
      );
    }
    return { stream: request.body, truncated: () => false };
  }

  /** Imports a package held in memory at once (the demo seed's small package): received, checked, extracted. */
  async importBuffer(importid: number, data: Buffer): Promise<TrainingImportDto> {
    let row = await this.require(importid);
    if (!(await this.move(row, 'receive', { source: 'upload', bytesTotal: data.length }, 'training_import.start'))) {
      throw new RevisionConflictException(toImportDto(row));
    }
    await this.storage.prepareIncoming();
    await writeFile(this.storage.incoming(importid), data);
    row = await this.require(importid);
    await this.move(row, 'validate', { percent: 60, bytesDone: data.length }, 'training_import.received');
    await this.run(importid);
    return this.one(importid);
  }

  // ------------------------------------------------------------------ the job

  /** The import job: fetch (byUrl), check, extract, install; every failure is stored on the import. */
  async run(importid: number, job?: JobContext): Promise<void> {
    this.working.add(importid);
    try {
      const now = this.clock.nowSeconds();
      await this.repository.touchImports([importid], [...WORKING_IMPORT_STATUSES], now, this.instance);
      await this.runImport(importid, job);
    } finally {
      this.working.delete(importid);
    }
  }

  private async runImport(importid: number, job?: JobContext): Promise<void> {
    let row = await this.repository.findImport(importid);
    if (!row || TERMINAL_IMPORT_STATUSES.includes(row.status) || row.status === 'created') return;
    const controller = new AbortController();
    const file = this.storage.incoming(importid);
    try {
      if (row.status === 'receiving') {
        if (row.source !== 'url' || !row.url) throw new ImportFailure('INTERRUPTED', 'The upload did not complete');
        await this.storage.prepareIncoming();
        const writes = coalesced((values: ProgressValues) =>
          this.progressOrStop(importid, 'receiving', values, controller, job),
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
        row = await this.require(importid);
        if (
          !(await this.move(
            row,
            'validate',
            { percent: 60, bytesDone: bytes, bytesTotal: bytes },
            'training_import.received',
          ))
        ) {
          throw new ImportStopped();
        }
        row = await this.require(importid);
      }
      if (row.status === 'validating') {
        const size = (await stat(file)).size;
        // Only the descriptor is inflated here: every entry's bytes are counted and checked against the
        // size and ratio limits as they inflate during the extraction (one inflating pass, not two).
        const report = await validateOffThread(file, { signal: controller.signal, headersOnly: true });
        const preview = JSON.stringify({ manifest: report.manifest, files: report.files.slice(0, 10_000) });
        const moved = await this.move(
          row,
          'extract',
          { percent: 70, warningsJson: JSON.stringify(report.warnings), previewJson: preview },
          'training_import.validated',
        );
        if (!moved) throw new ImportStopped();
        row = await this.require(importid);
        await this.extractAndInstall(row, file, size, report, controller, job);
        return;
      }
      if (row.status === 'extracting') throw new ImportFailure('INTERRUPTED', 'The extraction did not complete');
    } catch (error) {
      controller.abort(new ImportStopped());
      await this.storage.removePartial(row.moduleid, importid);
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
      await this.fail(current, code, message);
    }
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
    const staging = this.storage.staging(row.moduleid, importid);
    let reported = 0;
    const writes = coalesced((values: ProgressValues) =>
      this.progressOrStop(importid, 'extracting', values, controller, job),
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
      const current = await this.require(importid);
      if (
        !(await this.move(
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
      await this.storage.install(row.moduleid, importid, row.versionid);
      const body = await this.one(importid);
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

  // ------------------------------------------------------------------ moves

  /** A move of the state machine with its audit row; false when the import was not in `row.status` any more. */
  private async move(
    row: TrainingImportEntity,
    action: ImportAction,
    values: Partial<TrainingImportEntity>,
    auditAction: string,
  ): Promise<boolean> {
    const next = importTransition(row.status, action);
    if (!next.ok) return false;
    return this.transactions.run(async () => {
      const moved = await this.repository.moveImport(row.importid, row.status, {
        ...values,
        status: next.to,
        heartbeatDate: this.clock.nowSeconds(),
        ownerInstance: this.instance,
      });
      if (!moved) return false;
      const after = await this.require(row.importid);
      await this.audit.record({
        action: auditAction,
        entity: ['training_import', row.importid],
        before: { status: row.status },
        after: toImportDto(after),
      });
      return true;
    });
  }

  /** Fails an import (audit row, `import_failed` event) and deletes its partial files. */
  private async fail(row: TrainingImportEntity, code: string, message: string): Promise<boolean> {
    const moved = await this.transactions.run(async (tx) => {
      const ok = await this.move(
        row,
        'fail',
        {
          errorCode: code,
          errorMessage: message.slice(0, 1000),
          finishedDate: this.clock.nowSeconds(),
          runningSlot: null,
        },
        'training_import.fail',
      );
      if (ok) tx.publish(TrainingImportFailed(await this.one(row.importid)));
      return ok;
    });
    await this.storage.removePartial(row.moduleid, row.importid);
    return moved;
  }

  /** Writes progress while the import is still in `status`; otherwise stops the work (cancelled meanwhile). */
  private async progressOrStop(
    importid: number,
    status: ImportStatus,
    values: ProgressValues,
    controller: AbortController,
    job?: JobContext,
  ): Promise<void> {
    if (controller.signal.aborted) return;
    const ok = await this.repository.progress(importid, status, {
      ...values,
      heartbeatDate: this.clock.nowSeconds(),
      ownerInstance: this.instance,
    });
    if (!ok) controller.abort(new ImportStopped());
    else await job?.heartbeat();
  }
}

type ProgressValues = { percent: number; bytesDone: number; bytesTotal?: number | null };

const tooLarge = (limit: number) =>
  new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, `The package is larger than the limit of ${limit} bytes`);
