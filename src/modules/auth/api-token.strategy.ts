import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { API_TOKEN_STRATEGY } from '../../common/auth/access.guard';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { unauthorized } from '../../common/http/api-errors';
import { AuthTokenService } from './auth-token.service';

const HEADER = /^api\s+(\S+)\s*$/i;

/** Passport strategy for `Authorization: api <token>` (iFixit's scheme word; Bearer is not it). */
@Injectable()
export class ApiTokenStrategy extends PassportStrategy(Strategy, API_TOKEN_STRATEGY) {
  constructor(private readonly tokens: AuthTokenService) {
    super();
  }

  async validate(request: FastifyRequest): Promise<AuthenticatedUser> {
    const match = HEADER.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized('The Authorization header must be "api <token>"');
    const user = await this.tokens.authenticate(match[1]);
    if (!user) throw unauthorized('The token is invalid or has been revoked');
    return user;
  }
}
