import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../../common/auth/auth-rule.decorators';
import { Database } from '../../database/database';
import { HealthDto } from './health.dto';

/** `/health` answers within this time, even when the database hangs. */
export const HEALTH_TIMEOUT_MS = 1500;

@ApiTags('Health')
@Controller({ path: 'health' })
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Liveness and database check (outside /api/2.0); 503 within 2 s when the database is away',
    description: 'Asks the database a trivial query: 200 when it answers, 503 when it does not within 1.5 s.',
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({
    type: HealthDto,
    description: 'The database does not answer (or not within 1.5 s).',
  })
  check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    return this.databaseAnswers(reply);
  }

  @Get('live')
  @Public()
  @ApiOperation({
    summary: 'Liveness (outside /api/2.0): the process answers HTTP; the database is not asked',
    description: 'For a liveness probe: restart the instance only when this fails.',
  })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness (outside /api/2.0): the database answers within 1.5 s',
    description: 'For a readiness probe or a load balancer: send traffic only while this is 200.',
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({
    type: HealthDto,
    description: 'The database does not answer (or not within 1.5 s).',
  })
  ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    return this.databaseAnswers(reply);
  }

  private async databaseAnswers(reply: FastifyReply): Promise<HealthDto> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('health check timed out')), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([new Database(this.dataSource).ping(), timeout]);
      return { status: 'ok' };
    } catch {
      void reply.status(HttpStatus.SERVICE_UNAVAILABLE).header('retry-after', '5');
      return { status: 'unavailable' };
    } finally {
      clearTimeout(timer);
    }
  }
}
