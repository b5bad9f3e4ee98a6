import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, ValidateBy, type ValidationArguments } from 'class-validator';
import { INT32_MAX } from './input-guards';

const INTEGER = /^-?\d+$/;

interface QueryIntOptions {
  min?: number;
  /** Default: the database's INT range (2147483647), unless values are clamped. */
  max?: number;
  /** Values above this are lowered to it instead of being rejected. */
  clampTo?: number;
  description?: string;
  default?: number;
}

/** An integer query parameter; anything that is not a plain integer in range is a 422 with one message. */
export function QueryInt(queryOptions: QueryIntOptions = {}) {
  const options = {
    ...queryOptions,
    max: queryOptions.max ?? (queryOptions.clampTo === undefined ? INT32_MAX : undefined),
  };
  const problem = (value: unknown): string | undefined => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
    if (options.min !== undefined && value < options.min) return `must not be less than ${options.min}`;
    if (options.max !== undefined && value > options.max) return `must not be greater than ${options.max}`;
    return undefined;
  };
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string' || !INTEGER.test(value.trim())) return value;
      const n = Number(value);
      return options.clampTo !== undefined && n > options.clampTo ? options.clampTo : n;
    }),
    ValidateBy({
      name: 'queryInt',
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    }),
    ApiPropertyOptional({
      type: 'integer',
      minimum: options.min,
      maximum: options.max ?? options.clampTo,
      default: options.default,
      description: options.description,
    }),
  );
}

/**
 * A flag that takes effect when present, whatever its value (`?unpatrolled`, `?excludePrerequisiteSteps`):
 * iFixit behaviour. Give the property `= false` as its default.
 */
export function PresenceFlag(description?: string) {
  return applyDecorators(
    Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) =>
      Object.prototype.hasOwnProperty.call(obj, key),
    ),
    IsBoolean(),
    ApiPropertyOptional({
      type: 'boolean',
      description: `${description ?? ''} Takes effect when present, whatever its value.`.trim(),
    }),
  );
}

/**
 * A boolean query parameter: true, false, 1 or 0, in any case (Python clients send `True`/`False`);
 * anything else is a 422.
 */
export function QueryBoolean(description?: string) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const text = typeof value === 'string' ? value.toLowerCase() : value;
      if (text === 'true' || text === '1' || text === true) return true;
      if (text === 'false' || text === '0' || text === false) return false;
      return value;
    }),
    IsBoolean({ message: '$property must be one of true, false, 1, 0 (in any case)' }),
    ApiPropertyOptional({ type: 'boolean', description }),
  );
}

/** ASC or DESC, case-insensitive; stored upper-case. */
export function QueryOrder(description = 'Sort direction') {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value)),
    IsIn(['ASC', 'DESC'], { message: '$property must be ASC or DESC' }),
    ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'ASC', description }),
  );
}
