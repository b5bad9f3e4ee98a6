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
      description: 'Response format; XML answers application/xml with the same fields.',
    }),
    ApiProduces('application/json', 'application/xml'),
  );
}

export interface ResponseMode {
  pretty: boolean;
  xmlRoot: string | undefined;
}

export function responseMode(request: FastifyRequest): ResponseMode {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const config = (request.routeOptions?.config ?? {}) as ModeRouteConfig;
  const wantsXml = typeof query.type === 'string' && query.type.toUpperCase() === 'XML';
  return {
    pretty: Object.prototype.hasOwnProperty.call(query, 'pretty'),
    xmlRoot: wantsXml ? config.xmlRoot : undefined,
  };
}
