import { Module, OnModuleInit } from '@nestjs/common';
import { GuideApprovalSlots } from '../guides/guide-approval-slots';
import { GuidesModule } from '../guides/guides.module';
import { ApprovalGate } from '../releases/approval-gate';
import { ReleasesModule } from '../releases/releases.module';
import { UsersModule } from '../users/users.module';
import { ApprovalAssignmentsService } from './approval-assignments.service';
import { ApprovalProcessesController } from './approval-processes.controller';
import { ApprovalProcessesRepository } from './approval-processes.repository';
import { ApprovalProcessesService } from './approval-processes.service';
import { ApprovalRequestsController } from './approval-requests.controller';
import { ApprovalRequestsRepository } from './approval-requests.repository';
import { ApprovalRequestsService } from './approval-requests.service';
import { ApprovalSigningService } from './approval-signing.service';
import { ApprovalsDemoSeed } from './approvals-demo.seed';

/**
 * Approval processes, document slots and approval requests with e-signatures (docs/enterprise/approvals.md). Gates
 * releases through the ApprovalGate and moves them with ReleasesService.
 */
@Module({
  imports: [UsersModule, GuidesModule, ReleasesModule],
  controllers: [ApprovalProcessesController, ApprovalRequestsController],
  providers: [
    ApprovalProcessesRepository,
    ApprovalProcessesService,
    ApprovalAssignmentsService,
    ApprovalRequestsRepository,
    ApprovalRequestsService,
    ApprovalSigningService,
    ApprovalsDemoSeed,
  ],
})
export class ApprovalsModule implements OnModuleInit {
  constructor(
    private readonly guideSlots: GuideApprovalSlots,
    private readonly gate: ApprovalGate,
    private readonly assignments: ApprovalAssignmentsService,
    private readonly requests: ApprovalRequestsService,
  ) {}

  onModuleInit(): void {
    this.guideSlots.provide({ assign: (guideid, change) => this.assignments.assignGuide(guideid, change) });
    this.gate.provide({
      resolve: (doctype, docid, type) => this.assignments.resolve(doctype, docid, type),
      open: (release, process) => this.requests.open(release, process),
      cancel: (approvalRequestid) => this.requests.cancel(approvalRequestid),
    });
  }
}
