import type { ArgumentMetadata } from '@nestjs/common';
import { IsIn, IsOptional } from 'class-validator';
import { QueryBoolean, QueryInt } from './query-decorators';
import { ApiValidationPipe } from './api-validation.pipe';

class ListQuery {
  @IsOptional()
  @IsIn(['a', 'b'])
  display: 'a' | 'b' = 'a';

  @IsOptional()
  @QueryInt({ min: 1 })
  limit?: number;

  @IsOptional()
  @QueryBoolean()
  flag: boolean = false;

  /** No validation rule: whitelisting removes it, initializer or not. */
  undecorated = 'x';
}

const query = (data?: string): ArgumentMetadata => ({ type: 'query', metatype: ListQuery, data });

describe('ApiValidationPipe, query DTOs', () => {
  it('answers a repeated query like the first time, with a new DTO each time', async () => {
    const pipe = new ApiValidationPipe();
    for (const value of [{}, { display: 'b', limit: '5', flag: '1', unknown: 'dropped' }]) {
      const first = (await pipe.transform({ ...value }, query())) as ListQuery;
      const again = (await pipe.transform({ ...value }, query())) as ListQuery;
      expect(again).toBeInstanceOf(ListQuery);
      expect(again).not.toBe(first);
      expect(Object.entries(again)).toEqual(Object.entries(first));
      again.display = 'b';
      expect(((await pipe.transform({ ...value }, query())) as ListQuery).display).toBe(first.display);
    }
    expect({ ...((await pipe.transform({ limit: '5' }, query())) as ListQuery) }).toEqual({
      display: 'a',
      flag: false,
      limit: 5,
    });
  });

  it('refuses a bad query every time', async () => {
    const pipe = new ApiValidationPipe();
    await expect(pipe.transform({ limit: '0' }, query())).rejects.toThrow();
    await expect(pipe.transform({ limit: '0' }, query())).rejects.toThrow();
    await expect(pipe.transform({ display: 'c' }, query())).rejects.toThrow();
  });
});
