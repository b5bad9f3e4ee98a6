import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Header, Inject } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiException } from '../../common/http/api-errors';
import { OperatorToken } from '../../common/auth/auth-rule.decorators';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MetricsService } from './metrics.service';

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Prometheus metrics, outside /api/2.0. Only with METRICS_TOKEN set, and only for
 * `Authorization: Bearer <METRICS_TOKEN>`; without the setting the route answers 404 as if absent.
 */
@ApiTags('Operations')
@Controller({ path: 'metrics' })
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metricsService: MetricsService,
  ) {}

  @Get()
  @OperatorToken()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (outside /api/2.0)',
    description:
      'Request count and duration by route and status, database pool, outbox backlog and lag, job queue depth, ' +
      'process metrics. Send `Authorization: Bearer <METRICS_TOKEN>`; without the METRICS_TOKEN setting: 404.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4.', schema: { type: 'string' } })
  @ApiUnauthorizedResponse({ description: 'No or a wrong bearer token.' })
  @ApiNotFoundResponse({ description: 'METRICS_TOKEN is not set.' })
  async metrics(@Headers('authorization') authorization?: string): Promise<string> {
    const token = this.config.metricsToken;
    if (!token) throw new ApiException(404, 'Not found');
    const given = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (!given || !sameSecret(given, token)) throw new ApiException(401, 'Send Authorization: Bearer <METRICS_TOKEN>');
    return this.metricsService.metrics();
  }
}
