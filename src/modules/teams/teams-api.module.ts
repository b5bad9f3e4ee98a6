import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { TeamDirectoryService } from './team-directory.service';
import { TeamsController } from './teams.controller';
import { TeamsModule } from './teams.module';

/** The /teams endpoints; separate from TeamsModule (membership lookups) so users can depend on that one. */
@Module({
  imports: [TeamsModule, UsersModule],
  controllers: [TeamsController],
  providers: [TeamDirectoryService],
})
export class TeamsApiModule {}
