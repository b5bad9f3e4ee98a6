import { Global, Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { PolicyService } from './policy.service';

/** Global so every content module can ask the one policy service. */
@Global()
@Module({
  imports: [TeamsModule],
  providers: [PolicyService],
  exports: [PolicyService],
})
export class AccessModule {}
