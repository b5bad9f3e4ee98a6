import { JsonText } from '../../common/http/json-text';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { TagsService } from '../tags/tags.service';
import type { GuideDetailDto } from './dto/guide-response.dto';
import { GuideEditorService } from './guide-editor.service';
import { accessFacts } from './guide-access-facts';
import { GuideReaderService } from './guide-reader.service';

/** A guide's tags: read by its readers, changed (no revision) by its editors. */
@Injectable()
export class GuideTagsService {
  constructor(
    private readonly reader: GuideReaderService,
    private readonly editor: GuideEditorService,
    private readonly tags: TagsService,
  ) {}

  async tagsOf(guideid: number, caller: AuthenticatedUser | undefined): Promise<string[]> {
    await this.reader.assertReadable(caller, guideid);
    return (await this.tags.tagsOf('guide', [guideid])).get(guideid) ?? [];
  }

  /** Adds or removes a tag (no revision); answers the guide detail. Removing a tag the guide lacks: 404. */
  async changeTag(
    guideid: number,
    tag: string,
    action: 'add' | 'remove',
    caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    const row = await this.reader.assertReadable(caller, guideid);
    await this.editor.assertCanEdit(caller, accessFacts(row));
    if (action === 'add') {
      await this.tags.add('guide', guideid, tag);
    } else {
      const name = this.tags.normalize(tag).toLowerCase();
      const current = (await this.tags.tagsOf('guide', [guideid])).get(guideid) ?? [];
      if (!current.some((t) => t.toLowerCase() === name)) throw notFound('Tag');
      await this.tags.remove('guide', guideid, tag);
    }
    return this.reader.detail(guideid, caller);
  }
}
