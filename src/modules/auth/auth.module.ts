import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { UsersModule } from '../users/users.module';
import { ApiTokenStrategy } from './api-token.strategy';
import { AuthController } from './auth.controller';
import { AuthTokenService } from './auth-token.service';
import { LoginService } from './login.service';

@Module({
  imports: [PassportModule, UsersModule],
  controllers: [AuthController],
  providers: [AuthTokenService, ApiTokenStrategy, LoginService],
  exports: [AuthTokenService],
})
export class AuthModule {}
