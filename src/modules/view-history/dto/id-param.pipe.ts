import { Injectable, PipeTransform } from '@nestjs/common';
import { unprocessable } from '../../../common/http/api-errors';

/** A positive integer path parameter; anything else is a 422 naming the field. */
@Injectable()
export class PositiveIntParamPipe implements PipeTransform<string, number> {
  constructor(private readonly field: string) {}

  transform(value: string): number {
    const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > 2147483647)
      throw unprocessable(`${this.field} must be a positive integer`, this.field);
    return n;
  }
}
