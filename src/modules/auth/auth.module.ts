import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiTokenStrategy } from './api-token.strategy';
import { AuthTokenService } from './auth-token.service';

@Module({
  imports: [PassportModule],
  providers: [AuthTokenService, ApiTokenStrategy],
  exports: [AuthTokenService],
})
export class AuthModule {}
