import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { MediaService } from '../media/media.service';
import { ReputationModule } from '../reputation/reputation.module';
import { TeamsModule } from '../teams/teams.module';
import { AVATAR_SOURCE } from './avatar-source';
import { CurrentUserController } from './current-user.controller';
import { UserAccountsService } from './user-accounts.service';
import { UserAdminService } from './user-admin.service';
import { UserLookupsController } from './user-lookups.controller';
import { UserProfileService } from './user-profile.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TeamsModule, ReputationModule, MediaModule],
  controllers: [UserLookupsController, CurrentUserController, UsersController],
  providers: [
    UsersRepository,
    UsersService,
    UserProfileService,
    UserAdminService,
    UserAccountsService,
    { provide: AVATAR_SOURCE, useExisting: MediaService },
  ],
  exports: [UsersService, UserAccountsService],
})
export class UsersModule {}
