import { Module, OnModuleInit } from '@nestjs/common';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { UsersModule } from '../users/users.module';
import { ApprovalGate } from './approval-gate';
import { ReleaseDuplicatesService } from './release-duplicates.service';
import { ReleasesLookup } from './release-lookup';
import { ReleaseViewsService } from './release-views.service';
import { GuideReleasesController, WikiReleasesController } from './releases.controller';
import { ReleasesRepository } from './releases.repository';
import { ReleasesService } from './releases.service';

/**
 * Releases of guides and wikis (docs/enterprise/releases.md). Reaches documents through the DocumentRegistry and
 * approvals through the ApprovalGate (the approvals module imports this one and registers the gateway);
 * registers the live-release lookup with the platform's ReleaseDirectory.
 */
@Module({
  imports: [UsersModule],
  controllers: [GuideReleasesController, WikiReleasesController],
  providers: [
    ReleasesRepository,
    ReleaseViewsService,
    ReleasesService,
    ReleaseDuplicatesService,
    ReleasesLookup,
    ApprovalGate,
  ],
  exports: [ReleasesService, ApprovalGate],
})
export class ReleasesModule implements OnModuleInit {
  constructor(
    private readonly directory: ReleaseDirectory,
    private readonly lookup: ReleasesLookup,
  ) {}

  onModuleInit(): void {
    this.directory.provide(this.lookup);
  }
}
