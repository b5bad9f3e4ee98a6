import { applyDecorators } from '@nestjs/common';
import { RouteSettings } from './route-settings';
import { ApiProduces, ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

interface ModeRouteConfig {
  xmlRoot?: string;
}

/**
 * Lets a route answer `application/xml` when called with `type=XML` (its errors too). Stored in the
 * Fastify route config so that the guard, filter and interceptor all see it, whichever of them answers.
 */
export function XmlResponse(root: string) {
  return applyDecorators(
    RouteSettings({ xmlRoot: root } satisfies ModeRouteConfig),
    ApiQuery({
      name: 'type',
      required: false,
      enum: ['JSON', 'XML'],
      description:
        'Response format; XML answers application/xml with the same fields. Characters XML 1.0 forbids (control ' +
        'characters other than tab, LF and CR; U+FFFE, U+FFFF) are written as U+FFFD in XML only (JSON keeps ' +
        'them); CR is written as `&#xD;` so that it survives parsing. Keys that are not XML names become ' +
        '`<entry key="…">`. See docs/api-formats.md.',
    }),
    ApiProduces('application/json', 'application/xml'),
  );
}

export interface ResponseMode {
  pretty: boolean;
  xmlRoot: string | undefined;
}

/** `?pretty` with no value or any value but false, 0, no or off (docs/api-formats.md). */
function wantsPretty(value: unknown): boolean {
  if (value === undefined) return false;
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return !(typeof last === 'string' && ['false', '0', 'no', 'off'].includes(last.trim().toLowerCase()));
}

export function responseMode(request: FastifyRequest): ResponseMode {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const config = (request.routeOptions?.config ?? {}) as ModeRouteConfig;
  const wantsXml = typeof query.type === 'string' && query.type.toUpperCase() === 'XML';
  return {
    pretty: Object.prototype.hasOwnProperty.call(query, 'pretty') && wantsPretty(query.pretty),
    xmlRoot: wantsXml ? config.xmlRoot : undefined,
  };
}

/** The content type of JSON answers written as text (ResponseCacheFront sends cached answers with it too). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Whether the caller asked for plain JSON: neither `?pretty` nor XML. */
export function wantsPlainJson(request: FastifyRequest): boolean {
  const { pretty, xmlRoot } = responseMode(request);
  return !pretty && !xmlRoot;
}
