import { Injectable } from '@nestjs/common';
import { MachineTranslation } from '../wikis/machine-translation';
import { WikiTextService } from '../wikitext/wikitext.service';
import type { GuideDetailDto } from './dto/guide-response.dto';

/**
 * `machineTranslateLangid` on guide reads: the text shown (title, summary, introduction, conclusion, step
 * titles and lines) sent through the deployment's machine-translation provider, then rendered again.
 * Without a provider the guide is answered as stored.
 */
@Injectable()
export class GuideMachineTranslationService {
  constructor(
    private readonly translation: MachineTranslation,
    private readonly wikiText: WikiTextService,
  ) {}

  async translate(detail: GuideDetailDto, langid: string): Promise<GuideDetailDto> {
    if (!this.translation.configured || detail.locale === langid) return detail;
    const texts = [
      detail.title,
      detail.summary,
      detail.introduction_raw,
      detail.conclusion_raw,
      ...detail.steps.flatMap((step) => [step.title, ...step.lines.map((line) => line.text_raw)]),
    ];
    const translated = await this.translation.translate(texts, detail.locale, langid);
    let cursor = 4;
    const steps = detail.steps.map((step) => ({
      ...step,
      title: translated[cursor++],
      lines: step.lines.map((line) => ({ ...line, text_raw: translated[cursor++] })),
    }));
    const rendered = await this.wikiText.renderMany([
      translated[2],
      translated[3],
      ...steps.flatMap((step) => step.lines.map((line) => line.text_raw)),
    ]);
    cursor = 2;
    for (const step of steps) for (const line of step.lines) line.text_rendered = rendered[cursor++].rendered;
    return {
      ...detail,
      locale: langid,
      title: translated[0],
      summary: translated[1],
      introduction_raw: translated[2],
      introduction_rendered: rendered[0].rendered,
      conclusion_raw: translated[3],
      conclusion_rendered: rendered[1].rendered,
      steps,
    };
  }
}
