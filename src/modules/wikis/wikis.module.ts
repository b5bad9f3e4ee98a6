import { Module, OnModuleInit } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { TagsModule } from '../tags/tags.module';
import { TagsService } from '../tags/tags.service';
import { CategoriesController, CategoryTreeController } from './categories/categories.controller';
import { CategoriesRepository } from './categories/categories.repository';
import { CategoriesService } from './categories/categories.service';
import { CategoryContents } from './categories/category-contents';
import { CategoryGuidesListener } from './categories/category-guides.listener';
import { MachineTranslation } from './machine-translation';
import { WikiListService } from './wiki-list.service';
import { WikiReaderService } from './wiki-reader.service';
import { WikiTagsController } from './wiki-tags.controller';
import { WikiWriterService } from './wiki-writer.service';
import { WikisDemoSeed } from './wikis-demo.seed';
import { WikisController } from './wikis.controller';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { WikisRepository } from './wikis.repository';
import { WikisService } from './wikis.service';
import { WikiDocumentProvider } from './wiki-document.provider';
import { DocumentRegistry } from '../../platform/documents/document-registry';

export { WikisService } from './wikis.service';
export { MachineTranslation, type MachineTranslationProvider } from './machine-translation';

/** Wikis in six namespaces, the category tree, wiki tags; demo content at order 30. */
@Module({
  imports: [TagsModule, MediaModule, UsersModule, TeamsModule],
  // CategoriesController first: its static CATEGORY segment must win over WikisController's :namespace.
  controllers: [CategoriesController, CategoryTreeController, WikiTagsController, WikisController],
  providers: [
    WikisRepository,
    CategoriesRepository,
    WikiReaderService,
    WikiWriterService,
    WikiListService,
    CategoriesService,
    CategoryGuidesListener,
    CategoryContents,
    MachineTranslation,
    WikisService,
    WikisDemoSeed,
    WikiDocumentProvider,
  ],
  exports: [WikisService, MachineTranslation, WikisRepository],
})
export class WikisModule implements OnModuleInit {
  constructor(
    private readonly documents: DocumentRegistry,
    private readonly documentProvider: WikiDocumentProvider,
    private readonly tags: TagsService,
  ) {}

  onModuleInit(): void {
    this.documents.register('WIKI', this.documentProvider);
    this.tags.registerKind('wiki');
  }
}
