import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { LANGID_PATTERN } from '../../wikis/wiki-namespaces';

const langidMessage = { message: '$property must be two lower-case letters' };

export class SearchQueryDto extends PaginationQueryDto {
  /**
   * What to search, comma-separated: `guide`, `wiki` (wikis of every namespace but CATEGORY),
   * `category` (CATEGORY wikis), `all` (the default).
   */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^\s*(guide|wiki|category|all)\s*(,\s*(guide|wiki|category|all)\s*)*$/, {
    message: 'filter must be a comma-separated list of guide, wiki, category, all',
  })
  filter?: string;

  /** Search this language's text (two lower-case letters); default: each document's source language. */
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  langid?: string;
}

export class SuggestQueryDto {
  /**
   * Comma-separated kinds of suggestions: `guide`, `topic` (categories; `device` and `category` are
   * aliases), `item` (ITEM wikis), `wiki` (other wikis), `all` (the default: `topic` and `guide`).
   * `question` and `post` are accepted and yield nothing here; other values are ignored, but at least one
   * must be valid.
   */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  doctypes?: string;

  /** Suggest from this language's text (two lower-case letters); default: each document's source language. */
  @IsOptional()
  @Matches(LANGID_PATTERN, langidMessage)
  langid?: string;
}
