import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import type { WorkLogExportQueryDto } from './dto/work-log-query.dto';
import { WorkLogRepository } from './work-log.repository';

export const EXPORT_COLUMNS = [
  'entryid',
  'guideid',
  'workorderid',
  'userid',
  'status',
  'starttime',
  'endtime',
  'guide_revisionid',
  'stepid',
  'field_revisionid',
  'field_guid',
  'label',
  'value',
  'recorded_by',
  'date',
] as const;

/** Entries per page of the export: memory stays bounded by one page of entries and their values. */
export const EXPORT_PAGE = 100;

/** RFC 4180 field; a leading =, +, - or @ is prefixed with ' so spreadsheets do not run it as a formula. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: (string | number | null)[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** `GET /work_log/export.csv`: every recorded value of one entry or of a guide's entries, one row each. */
@Injectable()
export class WorkLogExportService {
  constructor(
    private readonly entries: WorkLogRepository,
    private readonly documents: DocumentRegistry,
  ) {}

  /** Checks the request (422, 404) before the first byte, then streams page by page. */
  async export(query: WorkLogExportQueryDto, caller: AuthenticatedUser): Promise<Readable> {
    if ((query.entryid === undefined) === (query.guideid === undefined)) {
      throw unprocessable(
        'Give exactly one of entryid and guideid',
        query.entryid === undefined ? 'guideid' : 'entryid',
      );
    }
    if (query.entryid !== undefined && !(await this.entries.findEntry(query.entryid))) throw notFound('Entry');
    if (query.guideid !== undefined) await this.documents.requireReadable(caller, 'GUIDE', query.guideid);
    const filter = {
      entryid: query.entryid,
      guideid: query.guideid,
      since: query.since,
      until: query.until,
    };
    const entries = this.entries;
    async function* lines(): AsyncGenerator<string> {
      yield csvLine([...EXPORT_COLUMNS]);
      let after = 0;
      for (;;) {
        const page = await entries.exportPage(filter, after, EXPORT_PAGE);
        if (!page.length) return;
        const data = await entries.dataOf(page.map((e) => e.entryid));
        const byEntry = new Map(page.map((e) => [e.entryid, e]));
        let chunk = '';
        for (const row of data) {
          const e = byEntry.get(Number(row.entryid))!;
          chunk += csvLine([
            e.entryid,
            e.guideid,
            e.workorderid,
            e.userid,
            e.status,
            e.starttime,
            e.endtime,
            e.guideRevisionid,
            row.stepid,
            row.field_revisionid,
            row.field_guid,
            row.label,
            row.value,
            row.userid,
            row.date,
          ]);
          if (chunk.length > 64 * 1024) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
        after = page[page.length - 1].entryid;
        if (page.length < EXPORT_PAGE) return;
      }
    }
    return Readable.from(lines(), { objectMode: false });
  }
}
