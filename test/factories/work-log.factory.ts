import { DataSource } from 'typeorm';
import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { StepFormInputDto } from '../../src/modules/step-forms/dto/step-form.dto';
import { TeamMemberEntity } from '../../src/modules/teams/entities/team-member.entity';
import { TeamEntity } from '../../src/modules/teams/entities/team.entity';
import type { UserEntity } from '../../src/modules/users/entities/user.entity';
import type { TestApp } from '../utils/test-app';
import { addStep, createGuide } from './guide.factory';

/** A team with these members (inserted directly). */
export async function createTeam(t: TestApp, name: string, userids: number[]): Promise<number> {
  const dataSource = t.app.get(DataSource);
  const team = await dataSource.getRepository(TeamEntity).save({
    name,
    description: '',
    createdByUserid: null,
    ownerUserid: null,
    createdDate: 1,
  } as unknown as TeamEntity);
  for (const userid of userids) {
    await dataSource.getRepository(TeamMemberEntity).save({ teamid: team.teamid, userid, joinedDate: 1 });
  }
  return team.teamid;
}

/** A public guide whose steps carry these forms (null: a step without a form), through the steps service. */
export async function guideWithForms(
  t: TestApp,
  author: UserEntity,
  category: string,
  forms: (StepFormInputDto | null)[],
  fields: { public?: boolean } = {},
): Promise<GuideDetailDto> {
  const guide = await createGuide(t, author, { category, public: fields.public ?? true });
  let detail = guide;
  for (const form of forms) {
    detail = await addStep(t, author, guide.guideid, form ? { form } : {});
  }
  return detail;
}

/** The form of a guide detail's step (asserting it has one). */
export function formOf(guide: GuideDetailDto, index: number) {
  const form = guide.steps[index].form;
  if (!form) throw new Error(`step ${index} has no form`);
  return form;
}
