import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ValidationFailedException } from '../../common/http/api-errors';
import { deepFreeze } from '../../common/deep-freeze';
import { TeamsService } from '../teams/teams.service';
import type { EntryStepFormDto, FormFieldInputDto, StepFormDto, StepFormInputDto } from './dto/step-form.dto';
import { ContentVersions } from '../../platform/versions/content-versions';
import { KeptCopies } from '../../platform/versions/kept-copies';
import type { StepFormFieldEntity } from './entities/step-form-field.entity';
import type { StepFormEntity } from './entities/step-form.entity';
import { toStepForm } from './step-form.mapper';
import { CHOICE_TYPES, formShapeProblems } from './step-form-values';
import { StepFormsRepository, type Versioned } from './step-forms.repository';

/** How step forms learn which steps a guide has; the guides module provides it. */
export interface GuideStepLookup {
  /** The guide's steps that are not deleted. */
  stepIds(guideid: number): Promise<number[]>;
}

/** (guide, pinned form revision) answers of formsAsOf kept per instance. */
const KEPT_FORM_SETS = 1000;

const newGuid = (): string => randomBytes(8).toString('hex');

/** What identifies a form's content (ids aside): an identical form makes no new revision. */
function contentOf(fields: Omit<StepFormFieldEntity, 'fieldRevisionid' | 'formRevisionid'>[], teamid: number | null) {
  return JSON.stringify({
    teamid,
    fields: fields.map((f) => [
      f.fieldGuid,
      f.label,
      f.fieldType,
      f.required,
      f.placeholder,
      f.textarea,
      f.options,
      f.unit,
      f.minValue,
      f.maxValue,
    ]),
  });
}

/**
 * Step forms (docs/enterprise/work-log.md): typed fields defined on guide steps, versioned with the step. Each change
 * appends a form revision with new field revisions; a field keeps its field_guid.
 */
@Injectable()
export class StepFormsService {
  private steps: GuideStepLookup | undefined;
  private readonly kept = new KeptCopies<EntryStepFormDto[]>(KEPT_FORM_SETS);

  constructor(
    private readonly forms: StepFormsRepository,
    private readonly teams: TeamsService,
    private readonly versions: ContentVersions,
  ) {}

  useSteps(lookup: GuideStepLookup): void {
    this.steps = lookup;
  }

  stepIds(guideid: number): Promise<number[]> {
    if (!this.steps) throw new Error('StepFormsService: no GuideStepLookup registered');
    return this.steps.stepIds(guideid);
  }

  private rows(guideid: number, stepid: number, fields: FormFieldInputDto[]) {
    return fields.map((f, i) => {
      const numeric = f.field_type === 'Numeric Input';
      return {
        guideid,
        stepid,
        orderby: i + 1,
        fieldGuid: f.field_guid ?? '',
        label: f.label,
        fieldType: f.field_type,
        required: f.required ?? false,
        placeholder: f.placeholder ?? '',
        textarea: f.textarea ?? f.field_type === 'Text Area',
        options: CHOICE_TYPES.includes(f.field_type) ? (f.options ?? []) : [],
        unit: numeric ? (f.unit ?? null) : null,
        minValue: numeric ? (f.min ?? null) : null,
        maxValue: numeric ? (f.max ?? null) : null,
      };
    });
  }

  /**
   * Saves a step's form as part of a step write: `undefined` keeps `previous`, `null` removes it, an input
   * that equals `previous` makes no revision. Answers what the step revision stores. 422 for bad forms.
   */
  async save(
    guideid: number,
    stepid: number,
    input: StepFormInputDto | null | undefined,
    previous: StepFormDto | null,
    who: { userid: number; date: number },
  ): Promise<StepFormDto | null> {
    if (input === undefined) return previous;
    if (input === null) {
      if (previous) await this.remove(guideid, stepid, who);
      return null;
    }
    const problems = formShapeProblems(input.fields);
    const given = input.fields.flatMap((f) => (f.field_guid ? [f.field_guid] : []));
    for (const guid of await this.forms.guidsOfOtherSteps(stepid, given)) {
      const index = input.fields.findIndex((f) => f.field_guid === guid);
      problems.push({ field: 'form.fields.field_guid', index, message: 'This field_guid belongs to another step' });
    }
    const teamid = input.signoff_teamid ?? null;
    if (teamid !== null && !(await this.teams.findTeam(teamid))) {
      problems.push({ field: 'form.signoff_teamid', message: 'Unknown team' });
    }
    if (problems.length) throw new ValidationFailedException(problems);
    const fields = this.rows(guideid, stepid, input.fields);
    if (previous) {
      // A field sent without field_guid continues the field at its position (unless that guid is sent elsewhere).
      fields.forEach((field, i) => {
        const inherited = previous.fields[i]?.field_guid;
        if (!field.fieldGuid && inherited && !given.includes(inherited)) field.fieldGuid = inherited;
      });
      const before = previous.fields.map((f, i) => ({
        guideid,
        stepid,
        orderby: i + 1,
        fieldGuid: f.field_guid,
        label: f.label,
        fieldType: f.field_type,
        required: f.required,
        placeholder: f.placeholder,
        textarea: f.textarea,
        options: f.options,
        unit: f.unit,
        minValue: f.min,
        maxValue: f.max,
      }));
      if (contentOf(fields, teamid) === contentOf(before, previous.signoff_teamid)) return previous;
    }
    for (const field of fields) if (!field.fieldGuid) field.fieldGuid = newGuid();
    const formRevisionid = await this.forms.insertForm({
      guideid,
      stepid,
      signoffTeamid: teamid,
      removed: false,
      userid: who.userid,
      date: who.date,
    });
    await this.versions.bump('step-forms');
    await this.forms.insertFields(fields.map((f) => ({ ...f, formRevisionid })));
    const stored = (await this.forms.fieldsOfForms([formRevisionid])).value;
    return toStepForm({ formRevisionid, guideid, stepid, signoffTeamid: teamid, removed: false, ...who }, stored);
  }

  /** Records that a step no longer has a form (form removed or step deleted). */
  async remove(guideid: number, stepid: number, who: { userid: number; date: number }): Promise<void> {
    await this.forms.insertForm({ guideid, stepid, signoffTeamid: null, removed: true, ...who });
    await this.versions.bump('step-forms');
  }

  maxFormRevision(guideid: number): Promise<number> {
    return this.forms.maxFormRevision(guideid);
  }

  /**
   * Per step, the newest form revision ≤ `max` (what an entry that pinned `max` fills in), in the order the
   * steps first got a form.
   * Form revisions are only appended, so this answer changes only when rows change under the service (a
   * database emptied or restored): it is kept under the `step-forms` version token its statements read and
   * sent again while that token is the stored one. `checked` is a token the caller read in a statement of
   * its own (fieldsByIds), which saves the check's. Cached answers are frozen; callers embed them as they are.
   */
  async formsAsOf(guideid: number, max: number, checked?: string | null): Promise<EntryStepFormDto[]> {
    if (max <= 0) return [];
    const key = `${guideid}:${max}`;
    const token = checked ?? (await this.versions.read('step-forms'));
    const kept = this.kept.get(key, token);
    if (kept !== undefined) return kept;
    const built = await this.buildFormsAsOf(guideid, max);
    if (built.token !== null) this.kept.keep(key, built.token, deepFreeze(built.forms));
    return built.forms;
  }

  /** formsAsOf from the rows, with the token both statements read (null when they differ or read none). */
  private async buildFormsAsOf(
    guideid: number,
    max: number,
  ): Promise<{ forms: EntryStepFormDto[]; token: string | null }> {
    const newest = new Map<number, StepFormEntity>();
    const revisions = await this.forms.formsOfGuide(guideid, max);
    for (const form of revisions.value) newest.set(form.stepid, form);
    const live = [...newest.values()].filter((f) => !f.removed);
    const fields = await this.forms.fieldsOfForms(live.map((f) => f.formRevisionid));
    const forms = live.map((form) => ({
      stepid: form.stepid,
      ...toStepForm(
        form,
        fields.value.filter((f) => f.formRevisionid === form.formRevisionid),
      ),
    }));
    const token = live.length && fields.token !== revisions.token ? null : revisions.token;
    return { forms, token };
  }

  /** The guide's fields with these ids, and the `step-forms` token read with them (a `checked` for formsAsOf). */
  fieldsByIds(guideid: number, ids: number[]): Promise<Versioned<StepFormFieldEntity[]>> {
    return this.forms.fieldsByIds(guideid, ids);
  }
}
