import { Module } from '@nestjs/common';
import { ApiIndexController } from './api-index.controller';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { OperationsRepository } from './operations.repository';

/** What operators and newcomers look at first: the API index and Prometheus metrics. */
@Module({
  controllers: [ApiIndexController, MetricsController],
  providers: [MetricsService, OperationsRepository],
  exports: [MetricsService],
})
export class OperationsModule {}
