import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GuidesModule } from '../guides/guides.module';
import { MediaModule } from '../media/media.module';
import { WikisModule } from '../wikis/wikis.module';
import { MysqlSearchRepository } from './mysql-search.repository';
import { SearchIndexSubscriber } from './search-index.subscriber';
import { SearchIndexerService } from './search-indexer.service';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';
import { SqliteSearchRepository } from './sqlite-search.repository';

/** Full-text search and suggestions over guides and wikis; the index follows guide and wiki events. */
@Module({
  imports: [GuidesModule, WikisModule, MediaModule],
  controllers: [SearchController],
  providers: [
    {
      provide: SearchRepository,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) =>
        dataSource.options.type === 'better-sqlite3'
          ? new SqliteSearchRepository(dataSource)
          : new MysqlSearchRepository(dataSource),
    },
    SearchIndexerService,
    SearchIndexSubscriber,
    SearchService,
  ],
  exports: [SearchIndexerService],
})
export class SearchModule {}
