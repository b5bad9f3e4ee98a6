import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ValidationFailedException, notFound, unprocessable } from '../../common/http/api-errors';
import { StaleRevisionError } from '../../common/revisions/stale-revision.error';
import { nowSeconds } from '../../database/columns';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import type { UpdateGuideDto } from './dto/guide-body.dto';
import type { GuideDetailDto, StepDto } from './dto/guide-response.dto';
import type { UpdateStepDto } from './dto/step-body.dto';
import type { GuideEntity } from './entities/guide.entity';
import type { GuideTranslationEntity } from './entities/guide-translation.entity';
import { GuideDocumentsService } from './guide-documents.service';
import { GuideEditorService } from './guide-editor.service';
import {
  parseStored,
  sameData,
  TRANSLATED_FIELDS,
  type GuideData,
  type StepData,
  type StepTranslationData,
  type TranslationData,
} from './guide-data';
import { GuideRevised } from './guide.events';
import { GuideReaderService } from './guide-reader.service';
import { GuideRevisionsRepository } from './guide-revisions.repository';

interface TranslationTarget {
  guide: GuideEntity;
  langid: string;
  /** The language version's pointers; null before its first revision. */
  translation: GuideTranslationEntity | null;
  /** Its newest revision's data, or the source text while it has none. */
  base: TranslationData;
}

/**
 * Language versions other than the source: guide text (PATCH /guides/{id} with a langid) and step text
 * (PATCH …/steps/{stepid} with a langid). Each change is a new revision of the translation; a step's
 * translated text is its own step revision, named by the translation revision. Structure (steps, their
 * order, lines' bullets and levels, media) always comes from the source language.
 */
@Injectable()
export class GuideTranslationsService {
  constructor(
    private readonly revisions: GuideRevisionsRepository,
    private readonly editor: GuideEditorService,
    private readonly documents: GuideDocumentsService,
    private readonly reader: GuideReaderService,
    private readonly transactions: TransactionService,
  ) {}

  /** The newest version of the guide in `langid`, as writes answer it. */
  private current(guideid: number, caller: AuthenticatedUser, langid: string): Promise<JsonText<GuideDetailDto>> {
    return this.reader.detail(guideid, caller, { unpatrolled: true, excludePrerequisiteSteps: true, langid });
  }

  /** The step as shown in `langid` (newest versions), with its comments. */
  async currentStep(guideid: number, stepid: number, langid: string, caller: AuthenticatedUser): Promise<StepDto> {
    const step = (await this.current(guideid, caller, langid)).value().steps.find((s) => s.stepid === stepid);
    if (!step) throw notFound('Step');
    return step;
  }

  async translateGuide(
    guideid: number,
    body: UpdateGuideDto,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    const langid = body.langid as string;
    const untranslatable = Object.entries(body)
      .filter(([key, value]) => value !== undefined && key !== 'langid')
      .map(([key]) => key)
      .filter((key) => !(TRANSLATED_FIELDS as readonly string[]).includes(key));
    if (untranslatable.length) {
      throw new ValidationFailedException(
        untranslatable.map((field) => ({ message: `${field} cannot be set on a translation`, field })),
      );
    }
    const stale = () => new StaleRevisionError(() => this.current(guideid, caller, langid));
    await this.transactions.run(async (tx) => {
      const target = await this.load(guideid, langid, caller);
      const expected = target.translation ? target.translation.headRevisionid : target.guide.headRevisionid;
      if (revisionid !== expected) throw stale();
      const next: TranslationData = { ...target.base };
      for (const field of TRANSLATED_FIELDS) if (body[field] !== undefined) next[field] = body[field];
      if (target.translation && sameData(next, target.base)) return;
      await this.save(target, next, caller, tx, stale);
    });
    return this.current(guideid, caller, langid);
  }

  /**
   * The step's text in `langid`. `revisionid` is the step's revisionid as shown in that language. `lines`
   * must be the source step's lines with only their text changed (same count, bullets and levels).
   */
  async translateStep(
    guideid: number,
    stepid: number,
    body: UpdateStepDto,
    revisionid: number,
    caller: AuthenticatedUser,
  ): Promise<StepDto> {
    const langid = body.langid as string;
    if (body.media !== undefined) {
      throw unprocessable('media cannot be set on a translation (it is shared by all languages)', 'media');
    }
    if (body.form !== undefined) {
      throw unprocessable('form cannot be set on a translation (it is shared by all languages)', 'form');
    }
    const stale = () => new StaleRevisionError(() => this.currentStep(guideid, stepid, langid, caller));
    await this.transactions.run(async (tx) => {
      const target = await this.load(guideid, langid, caller);
      const head = parseStored<GuideData>((await this.revisions.findRevision(target.guide.headRevisionid))?.data);
      const step = await this.revisions.findStep(stepid);
      if (!step || step.deleted || step.guideid !== guideid || !head.steps.some((s) => s.stepid === stepid)) {
        throw notFound('Step');
      }
      const translatedId = target.base.steps?.[stepid];
      if (revisionid !== Math.max(step.revisionid, translatedId ?? 0)) throw stale();
      const revisions = await this.revisions.findStepRevisions([
        step.revisionid,
        ...(translatedId ? [translatedId] : []),
      ]);
      const byId = new Map(revisions.map((r) => [r.revisionid, r.data]));
      const source = parseStored<StepData>(byId.get(step.revisionid));
      if (body.lines) assertSameStructure(body.lines, source.lines);
      const current: StepTranslationData = translatedId
        ? parseStored<StepTranslationData>(byId.get(translatedId))
        : { langid, title: source.title, lines: source.lines.map((line) => line.text) };
      const next: StepTranslationData = {
        langid,
        title: body.title ?? current.title,
        lines: body.lines ? body.lines.map((line) => line.text) : current.lines,
      };
      if (translatedId && sameData(next, current)) return;
      const stepRevision = await this.revisions.insertStepRevision({
        stepid,
        guideid,
        userid: caller.userid,
        date: nowSeconds(),
        data: next,
      });
      const steps = { ...target.base.steps, [stepid]: stepRevision };
      await this.save(target, { ...target.base, steps }, caller, tx, stale);
    });
    return this.currentStep(guideid, stepid, langid, caller);
  }

  private async load(guideid: number, langid: string, caller: AuthenticatedUser): Promise<TranslationTarget> {
    const { guide, facts } = await this.editor.load(guideid, caller);
    if (guide.deleted) throw notFound('Guide');
    await this.editor.assertCanEdit(caller, facts);
    const translation = await this.revisions.findTranslation(guideid, langid);
    const revision = await this.revisions.findRevision(translation ? translation.headRevisionid : guide.headRevisionid);
    const data = parseStored<GuideData | TranslationData>(revision?.data);
    const base: TranslationData = {
      title: data.title,
      summary: data.summary,
      introduction: data.introduction,
      conclusion: data.conclusion,
      steps: translation ? ((data as TranslationData).steps ?? {}) : {},
    };
    return { guide, langid, translation, base };
  }

  /** Saves `next` as the translation's newest revision (patrolled when the caller patrols the guide). */
  private async save(
    { guide, langid, translation }: TranslationTarget,
    next: TranslationData,
    caller: AuthenticatedUser,
    tx: Transaction,
    stale: () => StaleRevisionError,
  ): Promise<void> {
    const patrolled = this.editor.patrols(caller, guide.authorid);
    const revisionid = await this.revisions.insertRevision({
      guideid: guide.guideid,
      langid,
      userid: caller.userid,
      date: nowSeconds(),
      patrolled,
      data: next,
      document: await this.documents.buildTranslation(next),
      summary: null,
      layout: null,
      renderKey: this.documents.renderKey,
    });
    const pointers = { headRevisionid: revisionid, ...(patrolled ? { revisionid } : {}) };
    if (patrolled) tx.publish(GuideRevised({ guideid: guide.guideid, langid }));
    if (translation) {
      const advanced = await this.revisions.advanceTranslation(
        guide.guideid,
        langid,
        translation.headRevisionid,
        pointers,
      );
      if (!advanced) throw stale();
      return;
    }
    await this.revisions
      .insertTranslation({ guideid: guide.guideid, langid, revisionid: null, ...pointers })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? stale() : error;
      });
  }
}

/** A translated step keeps the source's line structure: same number of lines, bullets and levels. */
function assertSameStructure(lines: { bullet: string; level: number }[], source: StepData['lines']): void {
  if (lines.length !== source.length) {
    throw unprocessable(
      `A translation has the source step's ${source.length} line(s); only their text can change`,
      'lines',
    );
  }
  const index = lines.findIndex((line, i) => line.bullet !== source[i].bullet || line.level !== source[i].level);
  if (index >= 0) {
    throw unprocessable('bullet and level of a translated line must be those of the source line', 'lines', index);
  }
}
