import { Module, OnModuleInit } from '@nestjs/common';
import { SignatureService } from '../../platform/signatures/signature.service';
import { CurrentUserController } from './current-user.controller';
import { UserAccountsService } from './user-accounts.service';
import { UserAdminService } from './user-admin.service';
import { UserLookupsController } from './user-lookups.controller';
import { UserProfileService } from './user-profile.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { UserFactsRegistry } from './user-facts.registry';

@Module({
  controllers: [UserLookupsController, CurrentUserController, UsersController],
  providers: [
    UsersRepository,
    UsersService,
    UserProfileService,
    UserAdminService,
    UserAccountsService,
    UserFactsRegistry,
  ],
  exports: [UsersService, UserAccountsService, UserFactsRegistry],
})
export class UsersModule implements OnModuleInit {
  constructor(
    private readonly signatures: SignatureService,
    private readonly users: UsersRepository,
  ) {}

  onModuleInit(): void {
    // Signatures print the signer's name and check the re-entered password against the stored hash.
    this.signatures.useAccounts({
      credentials: async (userid) => {
        const user = await this.users.findById(userid);
        return user ? { printedName: user.username, passwordHash: user.passwordHash, email: user.email } : null;
      },
    });
  }
}
