import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound, unprocessable } from '../../common/http/api-errors';
import { StaleRevisionError } from '../../common/revisions/stale-revision.error';
import { nowSeconds } from '../../database/columns';
import { CommentsService } from '../comments/comments.service';
import { MediaService } from '../media/media.service';
import { StepFormsService } from '../step-forms/step-forms.service';
import type { CreateStepDto, StepLineInputDto, StepOrderDto, UpdateStepDto } from './dto/step-body.dto';
import type { GuideDetailDto, LinesPreviewDto, StepDto } from './dto/guide-response.dto';
import { GuideDocumentsService } from './guide-documents.service';
import { GuideEditorService, type EditContext } from './guide-editor.service';
import { isPermutation, lineLevelProblem, parseStored, sameData, type StepData } from './guide-data';
import { GuideTranslationsService } from './guide-translations.service';
import { GuideWriterService } from './guide-writer.service';
import { GuidesRepository } from './guides.repository';
import { GuideRevisionsRepository } from './guide-revisions.repository';

const toLines = (lines: StepLineInputDto[]): StepData['lines'] =>
  lines.map((line) => ({ text: line.text, bullet: line.bullet, level: line.level }));

function assertLevels(lines: { level: number }[]): void {
  const index = lineLevelProblem(lines);
  if (index !== undefined) {
    throw unprocessable(
      'The first line must be level 0 and each line at most one level deeper than the previous one',
      'lines.level',
      index,
    );
  }
}

/** Steps of a guide: each step change is a step revision plus a new guide revision. */
@Injectable()
export class GuideStepsService {
  constructor(
    private readonly guides: GuidesRepository,
    private readonly revisions: GuideRevisionsRepository,
    private readonly editor: GuideEditorService,
    private readonly writer: GuideWriterService,
    private readonly translations: GuideTranslationsService,
    private readonly documents: GuideDocumentsService,
    private readonly media: MediaService,
    private readonly comments: CommentsService,
    private readonly forms: StepFormsService,
  ) {}

  private async assertImages(caller: AuthenticatedUser, ids: number[], before: number[]): Promise<void> {
    const added = ids.filter((id) => !before.includes(id));
    if (!added.length) return;
    try {
      await this.media.assertImagesUsableBy(caller.userid, added);
    } catch (error) {
      const message = (error as { getResponse?: () => { message?: string } }).getResponse?.().message;
      throw unprocessable(message ?? 'media.data contains an unusable image', 'media.data');
    }
  }

  async create(
    guideid: number,
    body: CreateStepDto,
    revisionid: number | undefined,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    assertLevels(body.lines);
    await this.editor.edit(guideid, caller, revisionid, async ({ data }) => {
      const position = body.orderby ?? data.steps.length + 1;
      if (position > data.steps.length + 1) {
        throw unprocessable(`orderby must be between 1 and ${data.steps.length + 1}`, 'orderby');
      }
      const imageids = body.media?.data ?? [];
      await this.assertImages(caller, imageids, []);
      const stepid = await this.revisions.insertStep(guideid);
      const who = { userid: caller.userid, date: nowSeconds() };
      const form = await this.forms.save(guideid, stepid, body.form, null, who);
      const stepData: StepData = { title: body.title ?? '', lines: toLines(body.lines), imageids, form };
      const stepRevision = await this.revisions.insertStepRevision({
        stepid,
        guideid,
        userid: caller.userid,
        date: nowSeconds(),
        data: stepData,
      });
      await this.revisions.advanceStep(stepid, 0, { revisionid: stepRevision });
      const steps = [...data.steps];
      steps.splice(position - 1, 0, { stepid, revisionid: stepRevision });
      return { ...data, steps };
    });
    return this.writer.current(guideid, caller);
  }

  /** 404 unless the step belongs to this guide's newest revision. */
  private async ownStep(context: EditContext, stepid: number) {
    const index = context.data.steps.findIndex((s) => s.stepid === stepid);
    const step = await this.revisions.findStep(stepid);
    if (index < 0 || !step || step.guideid !== context.guide.guideid || step.deleted) throw notFound('Step');
    return { step, index };
  }

  private staleStep(guideid: number, stepid: number, caller: AuthenticatedUser): StaleRevisionError {
    return new StaleRevisionError(() => this.currentStep(guideid, stepid, caller));
  }

  /** The step's newest revision in its response shape, with its comments. */
  async currentStep(guideid: number, stepid: number, _caller: AuthenticatedUser): Promise<StepDto> {
    const step = await this.revisions.findStep(stepid);
    const guide = await this.guides.findGuide(guideid);
    if (!step || !guide || step.guideid !== guideid || step.deleted) throw notFound('Step');
    const [revision] = await this.revisions.findStepRevisions([step.revisionid]);
    const head = await this.revisions.findRevision(guide.headRevisionid);
    const orderby =
      parseStored<{ steps: { stepid: number }[] }>(head?.data).steps.findIndex((s) => s.stepid === stepid) + 1;
    const [document, comments] = await Promise.all([
      this.documents.renderStep(guideid, stepid, orderby, step.revisionid, parseStored<StepData>(revision.data)),
      this.comments.commentsFor('step', [stepid]),
    ]);
    const list = comments.get(stepid) ?? [];
    return { ...document, comments: list, comment_count: list.length };
  }

  async update(
    guideid: number,
    stepid: number,
    body: UpdateStepDto,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<StepDto> {
    if (body.langid !== undefined) {
      const guide = await this.guides.findGuide(guideid);
      if (guide && body.langid !== guide.langid) {
        return this.translations.translateStep(guideid, stepid, body, revisionid, caller);
      }
    }
    if (body.lines) assertLevels(body.lines);
    await this.editor.edit(guideid, caller, undefined, async (context) => {
      const { step, index } = await this.ownStep(context, stepid);
      if (step.revisionid !== revisionid) throw this.staleStep(guideid, stepid, caller);
      const [revision] = await this.revisions.findStepRevisions([step.revisionid]);
      const current = parseStored<StepData>(revision.data);
      const next: StepData = {
        title: body.title ?? current.title,
        lines: body.lines ? toLines(body.lines) : current.lines,
        imageids: body.media ? body.media.data : current.imageids,
        form: current.form ?? null,
      };
      if (body.form !== undefined) {
        const who = { userid: caller.userid, date: nowSeconds() };
        next.form = await this.forms.save(guideid, stepid, body.form, current.form ?? null, who);
      }
      if (sameData(next, { ...current, form: current.form ?? null })) return undefined;
      await this.assertImages(caller, next.imageids, current.imageids);
      const newRevision = await this.revisions.insertStepRevision({
        stepid,
        guideid,
        userid: caller.userid,
        date: nowSeconds(),
        data: next,
      });
      if (!(await this.revisions.advanceStep(stepid, revisionid, { revisionid: newRevision }))) {
        throw this.staleStep(guideid, stepid, caller);
      }
      const steps = [...context.data.steps];
      steps[index] = { stepid, revisionid: newRevision };
      return { ...context.data, steps };
    });
    return this.currentStep(guideid, stepid, caller);
  }

  async remove(
    guideid: number,
    stepid: number,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    await this.editor.edit(guideid, caller, undefined, async (context) => {
      const { step } = await this.ownStep(context, stepid);
      if (step.revisionid !== revisionid) throw this.staleStep(guideid, stepid, caller);
      if (!(await this.revisions.advanceStep(stepid, revisionid, { deleted: true }))) {
        throw this.staleStep(guideid, stepid, caller);
      }
      const [revision] = await this.revisions.findStepRevisions([step.revisionid]);
      if (parseStored<StepData>(revision.data).form) {
        await this.forms.remove(guideid, stepid, { userid: caller.userid, date: nowSeconds() });
      }
      return { ...context.data, steps: context.data.steps.filter((s) => s.stepid !== stepid) };
    });
    return this.writer.current(guideid, caller);
  }

  async reorder(
    guideid: number,
    body: StepOrderDto,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    await this.editor.edit(guideid, caller, revisionid, async ({ data }) => {
      if (
        !isPermutation(
          body.stepids,
          data.steps.map((s) => s.stepid),
        )
      ) {
        throw unprocessable("stepids must be a permutation of the guide's step ids", 'stepids');
      }
      const byId = new Map(data.steps.map((s) => [s.stepid, s]));
      return { ...data, steps: body.stepids.map((id) => byId.get(id) as (typeof data.steps)[number]) };
    });
    return this.writer.current(guideid, caller);
  }

  async preview(lines: StepLineInputDto[]): Promise<LinesPreviewDto> {
    assertLevels(lines);
    return { lines: await this.documents.renderLines(toLines(lines)) };
  }
}
