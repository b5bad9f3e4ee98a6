import { QueryInt } from './query-decorators';

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 20;

/** `limit` 1..200 (larger values are clamped to 200), `offset` >= 0. */
export class PaginationQueryDto {
  @QueryInt({
    min: 1,
    clampTo: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: 'Page size; values above 200 are treated as 200.',
  })
  limit: number = DEFAULT_LIMIT;

  @QueryInt({ min: 0, default: 0, description: 'Number of items to skip.' })
  offset: number = 0;
}
