import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { ApiException, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService } from '../../database/transaction.service';
import { JobRunner } from '../../platform/jobs/job-runner';
import type { TrainingImportDto } from './dto/training-response.dto';
import type { TrainingImportEntity } from './entities/training-import.entity';
import { coalesced } from './progress-writes';
import { IMPORT_JOB, importJobKey } from './training-import-job';
import { TrainingImportMoves, type ProgressValues } from './training-import-moves';
import { toImportDto } from './training-module.mapper';
import { prefixed, readMagic, refuseBody } from './upload-body';

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];
/** A local file header, or the end record of an empty archive. */
const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

type UploadSource = { stream: Readable; truncated: () => boolean };

const tooLarge = (limit: number) =>
  new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, `The package is larger than the limit of ${limit} bytes`);

/** T10: a package received in the request's body, streamed to disk, then queued for the import job. */
@Injectable()
export class TrainingImportUpload {
  constructor(
    private readonly moves: TrainingImportMoves,
    private readonly transactions: TransactionService,
    private readonly jobs: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * T10: streams a multipart `file` or a raw ZIP body to `incoming/{importid}.zip` (never the whole
   * package in memory), then queues the check. 415 for a body that is not a ZIP (by type or by its first
   * bytes, before anything changes); 413 past TRAINING_UPLOAD_LIMIT (the import fails). A refused body is not
   * read on: its answer closes the connection.
   */
  async startByUpload(importid: number, request: FastifyRequest): Promise<TrainingImportDto> {
    const limit = this.config.training.uploadLimit;
    const row = await this.moves.require(importid);
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
    if (!(await this.moves.move(row, 'receive', { source: 'upload', bytesTotal: total }, 'training_import.start'))) {
      refuseBody(request, source.stream);
      throw new RevisionConflictException(await this.moves.one(importid));
    }
    const bytes = await this.receive(row, request, source, first, total);
    const stored = await this.transactions.run(async () => {
      const current = await this.moves.require(importid);
      const ok = await this.moves.move(
        current,
        'validate',
        { percent: 60, bytesDone: bytes, bytesTotal: bytes },
        'training_import.received',
      );
      if (ok) await this.jobs.enqueue(IMPORT_JOB, { importid }, { uniqueKey: importJobKey(importid) });
      return ok;
    });
    if (!stored) {
      await this.moves.storage.removePartial(row.moduleid, importid);
      throw new RevisionConflictException(await this.moves.one(importid));
    }
    return this.moves.one(importid);
  }

  /** Streams the body to the import's incoming file, counting it against the limit; fails the import if it breaks. */
  private async receive(
    row: TrainingImportEntity,
    request: FastifyRequest,
    source: UploadSource,
    first: { head: Buffer; rest: Readable },
    total: number | null,
  ): Promise<number> {
    const { importid } = row;
    const limit = this.config.training.uploadLimit;
    const controller = new AbortController();
    this.moves.receiving.set(importid, controller);
    const file = this.moves.storage.incoming(importid);
    let bytes = 0;
    const writes = coalesced((values: ProgressValues) =>
      this.moves.progressOrStop(importid, 'receiving', values, controller),
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
      await this.moves.storage.prepareIncoming();
      await pipeline(Readable.from(prefixed(first.head, first.rest)), counter, createWriteStream(file), {
        signal: controller.signal,
      });
      await writes.flush();
      if (source.truncated()) throw tooLarge(limit);
    } catch (error) {
      await writes.flush().catch(() => undefined);
      refuseBody(request, source.stream);
      this.moves.receiving.delete(importid);
      await this.moves.storage.removePartial(row.moduleid, importid);
      const current = await this.moves.require(importid);
      if (current.status === 'cancelled') throw new RevisionConflictException(toImportDto(current));
      const tooBig = error instanceof ApiException && error.getStatus() === 413;
      await this.moves.fail(
        current,
        tooBig ? 'ZIP_TOO_LARGE' : 'UPLOAD_FAILED',
        tooBig ? (error as Error).message : `The upload did not complete: ${(error as Error).message}`,
      );
      throw tooBig
        ? error
        : new ApiException(HttpStatus.BAD_REQUEST, `The upload did not complete: ${(error as Error).message}`);
    }
    this.moves.receiving.delete(importid);
    return bytes;
  }

  private async uploadStream(request: FastifyRequest, limit: number, multipart: boolean): Promise<UploadSource> {
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
}
