import { defineEvent } from '../../platform/events/domain-event';
import type { TrainingImportDto, TrainingModuleDto, TrainingRegistrationDto } from './dto/training-response.dto';

/** An import finished with its package in the draft (docs/enterprise/webhooks-events.md: Import Completed). Payload: the Import. */
export const TrainingImportCompleted = defineEvent<TrainingImportDto>('training_module.import_completed', (i) => [
  'training_import',
  i.importid,
]);

/** An import failed (Import Failed). Payload: the Import with its error. */
export const TrainingImportFailed = defineEvent<TrainingImportDto>('training_module.import_failed', (i) => [
  'training_import',
  i.importid,
]);

/** A version became current (Published; a rollback too). Payload: the Module as an Admin reads it. */
export const TrainingModulePublished = defineEvent<TrainingModuleDto>('training_module.published', (m) => [
  'training_module',
  m.moduleid,
]);

/** A registration finished for the first time (completed, passed or failed). Payload: the Registration. */
export const TrainingRegistrationCompleted = defineEvent<TrainingRegistrationDto>(
  'training_module.registration_completed',
  (r) => ['training_registration', r.registrationid],
);
