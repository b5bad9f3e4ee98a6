import { Module, OnModuleInit } from '@nestjs/common';
import { UserFactsRegistry } from '../users/user-facts.registry';
import { UsersModule } from '../users/users.module';
import { BadgesController } from './badges.controller';
import { ReputationRepository } from './reputation.repository';
import { ReputationService } from './reputation.service';

/** Reputation points and badges, from the events of guides, teams and users; above the users module. */
@Module({
  imports: [UsersModule],
  controllers: [BadgesController],
  providers: [ReputationRepository, ReputationService],
  exports: [ReputationService],
})
export class ReputationModule implements OnModuleInit {
  constructor(
    private readonly facts: UserFactsRegistry,
    private readonly reputation: ReputationService,
  ) {}

  onModuleInit(): void {
    this.facts.provideBadgeCounts((userids) => this.reputation.badgeCounts(userids));
  }
}
