import { GuideRevisionLayout1795496000000 } from './1795496000000-GuideRevisionLayout';
import { AuditKeyedChain1795494205000 } from './1795494205000-AuditKeyedChain';
import { TrainingRegistrationResult1795490421000 } from './1795490421000-TrainingRegistrationResult';
import { TrainingImportOwner1795490420000 } from './1795490420000-TrainingImportOwner';
import { WikiTitleCase1795495000000 } from './1795495000000-WikiTitleCase';
import { EnterpriseAnswersVersions1795487000000 } from './1795487000000-EnterpriseAnswersVersions';
import { SignatureAttempts1795490000000 } from './1795490000000-SignatureAttempts';
import { AnswersVersion1795486000000 } from './1795486000000-AnswersVersion';
import { ContentVersions1795483000000 } from './1795483000000-ContentVersions';
import { StepFormsVersion1795484000000 } from './1795484000000-StepFormsVersion';
import { ReleasesVersion1795485000000 } from './1795485000000-ReleasesVersion';
import { EventDeliveriesEventIndex1795482000000 } from './1795482000000-EventDeliveriesEventIndex';
import { ReviewDocumentsMemberIndex1795481000000 } from './1795481000000-ReviewDocumentsMemberIndex';
import { TrainingImportPreview1795479000000 } from './1795479000000-TrainingImportPreview';
import { Search1795477000000 } from './1795477000000-Search';
import { TrainingImportHeartbeat1795480000000 } from './1795480000000-TrainingImportHeartbeat';
import { Quizzes1795475000000 } from './1795475000000-Quizzes';
import { TrainingModules1795476000000 } from './1795476000000-TrainingModules';
import { PeriodicReview1795474000000 } from './1795474000000-PeriodicReview';
import { Releases1795470000000 } from './1795470000000-Releases';
import { Approvals1795471000000 } from './1795471000000-Approvals';
import { WorkLog1795472000000 } from './1795472000000-WorkLog';
import { PlatformCore1795466182885 } from './1795466182885-PlatformCore';
import { RateLimitCounters1795464816099 } from './1795464816099-RateLimitCounters';
import { GuideRevisionSummary1795307559007 } from './1795307559007-GuideRevisionSummary';
import { Initial1795304022779 } from './1795304022779-Initial';
export const MYSQL_MIGRATIONS: Function[] = [
  Initial1795304022779,
  GuideRevisionSummary1795307559007,
  RateLimitCounters1795464816099,
  PlatformCore1795466182885,
  Releases1795470000000,
  Approvals1795471000000,
  WorkLog1795472000000,
  PeriodicReview1795474000000,
  Quizzes1795475000000,
  TrainingModules1795476000000,
  Search1795477000000,
  TrainingImportPreview1795479000000,
  TrainingImportHeartbeat1795480000000,
  ReviewDocumentsMemberIndex1795481000000,
  EventDeliveriesEventIndex1795482000000,
  ContentVersions1795483000000,
  StepFormsVersion1795484000000,
  ReleasesVersion1795485000000,
  AnswersVersion1795486000000,
  EnterpriseAnswersVersions1795487000000,
  SignatureAttempts1795490000000,
  AuditKeyedChain1795494205000,
  TrainingImportOwner1795490420000,
  TrainingRegistrationResult1795490421000,
  WikiTitleCase1795495000000,
  GuideRevisionLayout1795496000000,
];
