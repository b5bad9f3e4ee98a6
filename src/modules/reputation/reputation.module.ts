import { Module } from '@nestjs/common';
import { ReputationRepository } from './reputation.repository';
import { ReputationService } from './reputation.service';

@Module({
  providers: [ReputationRepository, ReputationService],
  exports: [ReputationService],
})
export class ReputationModule {}
