import { GuideEntity } from '../modules/guides/entities/guide.entity';
import { GuideRevisionEntity } from '../modules/guides/entities/guide-revision.entity';
import { GuideTranslationEntity } from '../modules/guides/entities/guide-translation.entity';
import { GuideStepEntity } from '../modules/guides/entities/guide-step.entity';
import { GuideStepRevisionEntity } from '../modules/guides/entities/guide-step-revision.entity';
import { GuideUserGrantEntity } from '../modules/guides/entities/guide-user-grant.entity';
import { GuideTeamGrantEntity } from '../modules/guides/entities/guide-team-grant.entity';
import { GuideCompletionEntity } from '../modules/guides/entities/guide-completion.entity';
import { GuideFavoriteEntity } from '../modules/guides/entities/guide-favorite.entity';
import { CommentEntity } from '../modules/comments/entities/comment.entity';
import { AuthTokenEntity } from '../modules/auth/entities/auth-token.entity';
import { ReputationAwardEntity } from '../modules/reputation/entities/reputation-award.entity';
import { UserBadgeEntity } from '../modules/reputation/entities/user-badge.entity';
import { TeamMemberEntity } from '../modules/teams/entities/team-member.entity';
import { TeamEntity } from '../modules/teams/entities/team.entity';
import { UserEntity } from '../modules/users/entities/user.entity';
import { TrainingModuleEntity } from '../modules/training-modules/entities/training-module.entity';
import { TrainingVersionEntity } from '../modules/training-modules/entities/training-version.entity';
import { TrainingImportEntity } from '../modules/training-modules/entities/training-import.entity';
import { TrainingRegistrationEntity } from '../modules/training-modules/entities/training-registration.entity';
import { DocumentEntity } from '../modules/media/entities/document.entity';
import { ImageEntity } from '../modules/media/entities/image.entity';
import { MediaUsageEntity } from '../modules/media/entities/media-usage.entity';
import { VideoEntity } from '../modules/media/entities/video.entity';
import { DocumentTagEntity } from '../modules/tags/entities/document-tag.entity';
import { TagEntity } from '../modules/tags/entities/tag.entity';
import { ViewHistoryEntity } from '../modules/view-history/entities/view-history.entity';
import { WikiCategoryGuideEntity } from '../modules/wikis/entities/wiki-category-guide.entity';
import { WikiLanguageEntity } from '../modules/wikis/entities/wiki-language.entity';
import { WikiRevisionEntity } from '../modules/wikis/entities/wiki-revision.entity';
import { WikiEntity } from '../modules/wikis/entities/wiki.entity';
import { ReleaseEntity } from '../modules/releases/entities/release.entity';
import { ReleaseLockEntity } from '../modules/releases/entities/release-lock.entity';
import { SearchDocumentEntity } from '../modules/search/entities/search-document.entity';
import { RateLimitCounterEntity } from '../common/rate-limit/rate-limit-counter.entity';

import { CourseStageEntity } from '../modules/courses/entities/course-stage.entity';
import { DomainEventEntity } from '../platform/events/entities/domain-event.entity';
import { EventDeliveryEntity } from '../platform/events/entities/event-delivery.entity';
import { JobEntity } from '../platform/jobs/entities/job.entity';
import { SchedulerLockEntity } from '../platform/jobs/entities/scheduler-lock.entity';
import { ContentVersionEntity } from '../platform/versions/entities/content-version.entity';
import { AuditEventEntity } from '../platform/audit/entities/audit-event.entity';
import { AuditChainHeadEntity } from '../platform/audit/entities/audit-chain-head.entity';
import { AuditCheckpointEntity } from '../platform/audit/entities/audit-checkpoint.entity';
import { SignatureEntity } from '../platform/signatures/entities/signature.entity';
import { SignatureAttemptEntity } from '../platform/signatures/entities/signature-attempt.entity';
import { SignatureLockoutEntity } from '../platform/signatures/entities/signature-lockout.entity';
import { ApprovalProcessEntity } from '../modules/approvals/entities/approval-process.entity';
import { ApprovalProcessRevisionEntity } from '../modules/approvals/entities/approval-process-revision.entity';
import { ApprovalProcessStageEntity } from '../modules/approvals/entities/approval-process-stage.entity';
import { ApprovalAssignmentEntity } from '../modules/approvals/entities/approval-assignment.entity';
import { ApprovalRequestEntity } from '../modules/approvals/entities/approval-request.entity';
import { ApprovalRequestStageEntity } from '../modules/approvals/entities/approval-request-stage.entity';
import { ApprovalStageSignatureEntity } from '../modules/approvals/entities/approval-stage-signature.entity';
import { SignCodeEntity } from '../platform/signatures/entities/sign-code.entity';
import { StepFormEntity } from '../modules/step-forms/entities/step-form.entity';
import { StepFormFieldEntity } from '../modules/step-forms/entities/step-form-field.entity';
import { WorkLogEntryEntity } from '../modules/work-log/entities/work-log-entry.entity';
import { WorkLogTimingEntity } from '../modules/work-log/entities/work-log-timing.entity';
import { WorkLogDataEntity } from '../modules/work-log/entities/work-log-data.entity';
import { WorkLogSignoffEntity } from '../modules/work-log/entities/work-log-signoff.entity';
import { QuizEntity } from '../modules/quizzes/entities/quiz.entity';
import { QuizRevisionEntity } from '../modules/quizzes/entities/quiz-revision.entity';
import { QuizQuestionEntity } from '../modules/quizzes/entities/quiz-question.entity';
import { QuizAssociationEntity } from '../modules/quizzes/entities/quiz-association.entity';
import { QuizSessionEntity } from '../modules/quizzes/entities/quiz-session.entity';
import { QuizSubmissionEntity } from '../modules/quizzes/entities/quiz-submission.entity';
import { ReviewScheduleEntity } from '../modules/periodic-review/entities/review-schedule.entity';
import { ReviewDocumentEntity } from '../modules/periodic-review/entities/review-document.entity';
import { ReviewEntity } from '../modules/periodic-review/entities/review.entity';
import { ChangeRequestEntity } from '../modules/periodic-review/entities/change-request.entity';

/** Every entity of the service; the data source, migrations check and tests share this list. */
export const ENTITIES = [
  ReviewScheduleEntity,
  ReviewDocumentEntity,
  ReviewEntity,
  ChangeRequestEntity,
  ApprovalProcessEntity,
  ApprovalProcessRevisionEntity,
  ApprovalProcessStageEntity,
  ApprovalAssignmentEntity,
  ApprovalRequestEntity,
  ApprovalRequestStageEntity,
  ApprovalStageSignatureEntity,
  CourseStageEntity,
  DomainEventEntity,
  EventDeliveryEntity,
  JobEntity,
  SchedulerLockEntity,
  ContentVersionEntity,
  AuditEventEntity,
  AuditChainHeadEntity,
  AuditCheckpointEntity,
  SignatureEntity,
  SignatureAttemptEntity,
  SignatureLockoutEntity,
  SignCodeEntity,
  CommentEntity,
  UserEntity,
  AuthTokenEntity,
  TeamEntity,
  TeamMemberEntity,
  UserBadgeEntity,
  ReputationAwardEntity,
  ImageEntity,
  MediaUsageEntity,
  VideoEntity,
  DocumentEntity,
  TagEntity,
  DocumentTagEntity,
  ViewHistoryEntity,
  WikiEntity,
  WikiLanguageEntity,
  WikiRevisionEntity,
  WikiCategoryGuideEntity,
  GuideEntity,
  GuideRevisionEntity,
  GuideTranslationEntity,
  GuideStepEntity,
  GuideStepRevisionEntity,
  GuideUserGrantEntity,
  GuideTeamGrantEntity,
  GuideCompletionEntity,
  GuideFavoriteEntity,
  RateLimitCounterEntity,
  ReleaseEntity,
  ReleaseLockEntity,
  StepFormEntity,
  StepFormFieldEntity,
  WorkLogEntryEntity,
  WorkLogTimingEntity,
  WorkLogDataEntity,
  WorkLogSignoffEntity,
  SearchDocumentEntity,
  QuizEntity,
  QuizRevisionEntity,
  QuizQuestionEntity,
  QuizAssociationEntity,
  QuizSessionEntity,
  QuizSubmissionEntity,
  TrainingModuleEntity,
  TrainingVersionEntity,
  TrainingImportEntity,
  TrainingRegistrationEntity,
];
