import { Injectable } from '@nestjs/common';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import type { DocumentObjectDto } from './dto/document-object.dto';
import type { OrderedPageQueryDto } from './dto/media-query.dto';
import { DocumentsRepository } from './documents.repository';
import { documentKey, newGuid, parseMediaRef } from './media-keys';
import { MediaMappers } from './media-mappers';
import { sniffDocument } from './processing/file-types';
import { MediaStorage } from './storage/media-storage';
import { StoredFiles } from './storage/stored-files';

/** PDF and office documents (for guides' `documents` and category documents). */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly mappers: MediaMappers,
    private readonly storage: MediaStorage,
    private readonly transactions: TransactionService,
  ) {}

  async detail(idOrGuid: string): Promise<DocumentObjectDto> {
    const document = await this.documents.findByRef(parseMediaRef(idOrGuid));
    if (!document) throw notFound('Document');
    return this.mappers.documentObject(document);
  }

  async listMine(userid: number, query: OrderedPageQueryDto): Promise<DocumentObjectDto[]> {
    const rows = await this.documents.listManager(userid, query.offset, query.limit, query.order);
    return rows.map((row) => this.mappers.documentObject(row));
  }

  async upload(userid: number, data: Buffer, filename: string): Promise<DocumentObjectDto> {
    const type = sniffDocument(data, filename);
    if (!type) {
      throw unprocessable(
        'Unsupported document type: expected PDF, Word, Excel, PowerPoint (doc/docx/xls/xlsx/ppt/pptx) or OpenDocument',
        'file',
      );
    }
    const guid = newGuid();
    const key = documentKey(guid, filename, type.ext);
    const files = new StoredFiles(this.storage);
    await files.putAll([{ key, data, contentType: type.mime }]);
    const row = await files.commitWith(() =>
      this.transactions.run(() =>
        this.documents.insert({
          guid,
          ownerUserid: userid,
          inManager: true,
          filename: filename.slice(0, 255),
          title: filename.slice(0, 255),
          mime: type.mime,
          ext: type.ext,
          docGroup: type.group,
          fileSize: data.length,
          storageKey: key,
          createdDate: nowSeconds(),
        }),
      ),
    );
    return this.mappers.documentObject(row);
  }
}
