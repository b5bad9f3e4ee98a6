import { Global, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { AVATAR_SOURCE } from '../users/avatar-source';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WikiTextService } from '../wikitext/wikitext.service';
import { DocumentsController } from './documents.controller';
import { DocumentsRepository } from './documents.repository';
import { DocumentsService } from './documents.service';
import { ImagesController } from './images.controller';
import { ImagesRepository } from './images.repository';
import { ImagesService } from './images.service';
import { MediaDemoSeed } from './media-demo.seed';
import { MediaFilesController } from './media-files.controller';
import { MediaMappers } from './media-mappers';
import { loadMediaOptions, MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { MediaUsageService } from './media-usage.service';
import { ImageVariantsJob } from './image-variants.job';
import { MediaService } from './media.service';
import { PlaceholderImages } from './placeholder-images';
import { LocalMediaStorage } from './storage/local-media-storage';
import { MediaStorage } from './storage/media-storage';
import { S3MediaStorage } from './storage/s3-media-storage';
import { VideosController } from './videos.controller';
import { VideosRepository } from './videos.repository';
import { VideosService } from './videos.service';

export { MediaService } from './media.service';

/** Global: the users module takes its AVATAR_SOURCE from here without importing media (media depends on users). */
@Global()
@Module({
  controllers: [ImagesController, VideosController, DocumentsController, MediaFilesController],
  providers: [
    { provide: MEDIA_OPTIONS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => loadMediaOptions(config) },
    {
      provide: MediaStorage,
      inject: [MEDIA_OPTIONS],
      useFactory: (options: MediaOptions): MediaStorage =>
        options.storage.kind === 's3'
          ? S3MediaStorage.create(options.storage)
          : new LocalMediaStorage(options.storage.dir),
    },
    ImagesRepository,
    VideosRepository,
    DocumentsRepository,
    MediaMappers,
    MediaUsageService,
    ImageVariantsJob,
    ImagesService,
    VideosService,
    DocumentsService,
    MediaService,
    PlaceholderImages,
    MediaDemoSeed,
    { provide: AVATAR_SOURCE, useExisting: MediaService },
  ],
  exports: [MediaService, AVATAR_SOURCE],
})
export class MediaModule implements OnModuleInit {
  private readonly logger = new Logger('Media');

  constructor(
    private readonly wikiText: WikiTextService,
    private readonly media: MediaService,
    private readonly mappers: MediaMappers,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    this.wikiText.registerLoader('image', async (ids) => {
      const objects = await this.media.imageObjects(ids);
      return new Map(
        [...objects].map(([id, object]) => {
          const { id: _id, guid, ...urls } = object as unknown as Record<string, string> & { id: number };
          return [id, { id, guid, urls }];
        }),
      );
    });
    this.wikiText.registerLoader('document', async (ids) => {
      const objects = await this.media.documentObjects(ids);
      return new Map([...objects].map(([id, document]) => [id, { title: document.title, url: document.download_url }]));
    });
    this.logger.debug(`media storage: ${this.options.storage.kind}, files at ${this.mappers.fileUrl('')}`);
  }
}
