import type { CreateGuideDto } from '../../src/modules/guides/dto/guide-body.dto';
import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { CreateStepDto } from '../../src/modules/guides/dto/step-body.dto';
import { GuideStepsService } from '../../src/modules/guides/guide-steps.service';
import { GuideWriterService } from '../../src/modules/guides/guide-writer.service';
import type { UserEntity } from '../../src/modules/users/entities/user.entity';
import type { TestApp } from '../utils/test-app';
import { asCaller } from './wiki.factory';

let sequence = 0;

/** Creates a guide through the writer service (the same path as POST /guides). The category must exist. */
export function createGuide(
  t: TestApp,
  author: UserEntity,
  fields: Partial<CreateGuideDto> & { category: string },
): Promise<GuideDetailDto> {
  sequence += 1;
  return t.app
    .get(GuideWriterService)
    .create({ type: 'replacement', subject: `Part ${sequence}`, ...fields }, asCaller(author))
    .then((detail) => detail.value());
}

/** Adds a step through the steps service (the same path as POST /guides/{guideid}/steps). */
export function addStep(
  t: TestApp,
  author: UserEntity,
  guideid: number,
  fields: Partial<CreateStepDto> = {},
): Promise<GuideDetailDto> {
  sequence += 1;
  return t.app
    .get(GuideStepsService)
    .create(
      guideid,
      { lines: [{ text: `Line of step ${sequence}`, bullet: 'black', level: 0 }], ...fields },
      undefined,
      asCaller(author),
    )
    .then((detail) => detail.value());
}
