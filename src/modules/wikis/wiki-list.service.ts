import { Injectable } from '@nestjs/common';
import type { WikiListQueryDto } from './dto/wiki-query.dto';
import type { WikiLightDto } from './dto/wiki-response.dto';
import type { WikiNamespace } from './wiki-namespaces';
import { WikiReaderService } from './wiki-reader.service';
import { WikisRepository } from './wikis.repository';

/** GET /wikis/{namespace}: one query for the page, one call for its images. */
@Injectable()
export class WikiListService {
  constructor(
    private readonly wikis: WikisRepository,
    private readonly reader: WikiReaderService,
  ) {}

  async list(namespace: WikiNamespace, query: WikiListQueryDto): Promise<WikiLightDto[] | string[]> {
    const filter = { namespace, offset: query.offset, limit: query.limit, modifiedSince: query.modifiedSince };
    if (query.display === 'titles') return this.wikis.listTitles(filter);
    return this.reader.toLights(await this.wikis.listPage(filter, query.langid));
  }
}
