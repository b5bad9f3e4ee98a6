import { Module, OnModuleInit } from '@nestjs/common';
import { notFound } from '../../common/http/api-errors';
import { CommentsModule } from '../comments/comments.module';
import { CommentsService } from '../comments/comments.service';
import { MediaModule } from '../media/media.module';
import { TagsModule } from '../tags/tags.module';
import { TagsService } from '../tags/tags.service';
import { StepFormsModule } from '../step-forms/step-forms.module';
import { StepFormsService } from '../step-forms/step-forms.service';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { WikisModule } from '../wikis/wikis.module';
import { WikiTextService } from '../wikitext/wikitext.service';
import { GuideAccessController } from './guide-access.controller';
import { GuideAccessService } from './guide-access.service';
import { GuideDocumentsService } from './guide-documents.service';
import { GuideEditorService } from './guide-editor.service';
import { GuideFieldsService } from './guide-fields.service';
import { GuideQueriesService } from './guide-queries.service';
import { GuideMachineTranslationService } from './guide-machine-translation.service';
import { GuideReaderService } from './guide-reader.service';
import { GuideSummariesService } from './guide-summaries.service';
import { GuideStepsController } from './guide-steps.controller';
import { GuideStepsService } from './guide-steps.service';
import { GuideUserListsController } from './guide-user-lists.controller';
import { GuideUserListsService } from './guide-user-lists.service';
import { GuideTagsController } from './guide-tags.controller';
import { GuideTagsService } from './guide-tags.service';
import { GuideTranslationsService } from './guide-translations.service';
import { GuideWriterService } from './guide-writer.service';
import { GuidesDemoSeed } from './guides-demo.seed';
import { GuidesController } from './guides.controller';
import { GuidesRepository } from './guides.repository';
import { GuideGrantsRepository } from './guide-grants.repository';
import { GuideMarksRepository } from './guide-marks.repository';
import { GuideRevisionsRepository } from './guide-revisions.repository';
import { GuideDocumentProvider } from './guide-document.provider';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { GuideApprovalSlots } from './guide-approval-slots';
import { GuideDirectory } from '../../platform/documents/guide-directory';
import { GuideLookupProvider } from './guide-lookup.provider';

/** Guides, their steps, revisions and languages, access grants, per-user lists; demo content at order 40. */
@Module({
  imports: [WikisModule, MediaModule, TagsModule, UsersModule, CommentsModule, TeamsModule, StepFormsModule],
  controllers: [
    GuideStepsController,
    GuidesController,
    GuideAccessController,
    GuideUserListsController,
    GuideTagsController,
  ],
  providers: [
    GuidesRepository,
    GuideRevisionsRepository,
    GuideGrantsRepository,
    GuideMarksRepository,
    GuideDocumentsService,
    GuideReaderService,
    GuideSummariesService,
    GuideEditorService,
    GuideFieldsService,
    GuideWriterService,
    GuideTranslationsService,
    GuideStepsService,
    GuideQueriesService,
    GuideMachineTranslationService,
    GuideAccessService,
    GuideUserListsService,
    GuideTagsService,
    GuidesDemoSeed,
    GuideDocumentProvider,
    GuideApprovalSlots,
    GuideLookupProvider,
  ],
  exports: [
    GuideApprovalSlots,
    GuidesRepository,
    GuideRevisionsRepository,
    GuideDocumentsService,
    GuideReaderService,
    GuideSummariesService,
  ],
})
export class GuidesModule implements OnModuleInit {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly reader: GuideReaderService,
    private readonly documents: GuideDocumentsService,
    private readonly wikiText: WikiTextService,
    private readonly comments: CommentsService,
    private readonly registry: DocumentRegistry,
    private readonly documentProvider: GuideDocumentProvider,
    private readonly tags: TagsService,
    private readonly stepForms: StepFormsService,
    private readonly guideDirectory: GuideDirectory,
    private readonly guideLookup: GuideLookupProvider,
  ) {}

  onModuleInit(): void {
    this.registry.register('GUIDE', this.documentProvider);
    this.guideDirectory.provide(this.guideLookup);
    this.tags.registerKind('guide');
    this.stepForms.useSteps({ stepIds: (guideid) => this.revisions.liveStepIds(guideid) });
    // Only guides anyone may read resolve; others render as plain text.
    this.wikiText.registerLoader('guide', async (ids) => {
      const rows = await this.guides.publicGuides(ids);
      return new Map(rows.map((g) => [g.guideid, { title: g.title, url: this.documents.url(g.guideid, g.title) }]));
    });
    this.comments.registerContext('guide', {
      assertReadable: async (user, guideid) => {
        const row = await this.reader.assertReadable(user, guideid);
        return { title: row.guide.title };
      },
      filterReadable: (user, guideids) => this.reader.readableIds(user, guideids),
    });
    this.comments.registerContext('step', {
      assertReadable: async (user, stepid) => {
        const step = await this.revisions.findStep(stepid);
        if (!step || step.deleted) throw notFound('Step');
        const row = await this.reader.assertReadable(user, step.guideid);
        return { title: row.guide.title };
      },
      filterReadable: async (user, stepids) => {
        const guideOf = await this.revisions.guideIdsOfSteps(stepids);
        const readable = await this.reader.readableIds(user, [...guideOf.values()]);
        return new Set(stepids.filter((id) => readable.has(guideOf.get(id) as number)));
      },
    });
  }
}
