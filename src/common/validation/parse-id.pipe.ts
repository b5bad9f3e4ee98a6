import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from '../http/api-errors';

/** A positive integer id in a path; anything else is the same 404 as an unknown id. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  constructor(private readonly what: string) {}

  transform(value: string): number {
    if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2147483647) throw notFound(this.what);
    return Number(value);
  }
}
