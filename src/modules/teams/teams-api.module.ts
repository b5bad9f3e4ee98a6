import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { UsersModule } from '../users/users.module';
import { TeamDirectoryService } from './team-directory.service';
import { TeamsController } from './teams.controller';
import { TeamsModule } from './teams.module';

/** The /teams endpoints; separate from TeamsModule (membership lookups) so users can depend on that one. */
@Module({
  imports: [TeamsModule, UsersModule, MediaModule],
  controllers: [TeamsController],
  providers: [TeamDirectoryService],
})
export class TeamsApiModule {}
