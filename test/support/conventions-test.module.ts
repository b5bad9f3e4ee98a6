import { Body, Controller, Delete, Get, Module, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { DataSource } from 'typeorm';
import { Authenticated, CurrentUser, Public } from '../../src/common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../src/common/auth/authenticated-user';
import { RevisionConflictException } from '../../src/common/http/api-errors';
import { XmlResponse } from '../../src/common/http/response-mode';
import { StaleRevisionError } from '../../src/common/revisions/stale-revision.error';
import { RevisionId, Versioned } from '../../src/common/revisions/versioned.decorator';
import { PaginationQueryDto } from '../../src/common/validation/pagination.dto';
import { PresenceFlag, QueryBoolean, QueryOrder } from '../../src/common/validation/query-decorators';

class ListQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder()
  order: 'ASC' | 'DESC' = 'ASC';

  @PresenceFlag()
  unpatrolled = false;

  @IsOptional()
  @QueryBoolean()
  includePrivate?: boolean;
}

class PartDto {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  quantity: number;
}

class CreateThingDto {
  @IsString()
  @MaxLength(10)
  title: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => PartDto)
  parts?: PartDto[];
}

/** Routes that exist only in tests, to exercise the HTTP conventions through the real stack. */
@Controller('__test')
class ConventionsTestController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('list')
  @Public()
  list(@Query() query: ListQueryDto) {
    return query;
  }

  @Post('things')
  @Public()
  create(@Body() body: CreateThingDto) {
    return body;
  }

  @Delete('things')
  @Public()
  remove(@Body() body: CreateThingDto) {
    return { deleted: body.title };
  }

  @Post('raw')
  @Public()
  @RouteConfig({ rawBody: true })
  raw(@Body() body: Buffer) {
    return { bytes: body.length };
  }

  @Get('xml')
  @Public()
  @XmlResponse('thing')
  xml() {
    return {
      id: 1,
      title: 'A & B <c>',
      image: { id: 7, '140x105': 'http://x/140' },
      steps: [{ n: 1 }, { n: 2 }],
      none: null,
    };
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('secret database password in this message');
  }

  @Get('conflict')
  @Public()
  conflict(): never {
    throw new RevisionConflictException({ guideid: 1, revisionid: 5 });
  }

  @Get('sql')
  @Public()
  async sql() {
    for (let i = 0; i < 3; i += 1) await this.dataSource.query('SELECT 1');
    return {};
  }

  @Post('versioned')
  @Public()
  @Versioned()
  versioned(@RevisionId() revisionid: number) {
    if (revisionid !== 7) throw new StaleRevisionError(async () => ({ thingid: 1, revisionid: 7 }));
    return { thingid: 1, revisionid: 8 };
  }

  @Post('optionally-versioned')
  @Public()
  @Versioned({ required: false })
  optionallyVersioned(@RevisionId() revisionid?: number) {
    return { revisionid: revisionid ?? null };
  }

  @Get('slow')
  @Public()
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await this.dataSource.query('SELECT 1');
    return { finished: true };
  }

  @Get('public')
  @Public()
  whoAmI(@CurrentUser() user?: AuthenticatedUser) {
    return { userid: user?.userid ?? null };
  }

  @Get('private')
  @Authenticated()
  privateRoute(@CurrentUser() user: AuthenticatedUser) {
    return { userid: user.userid, privileges: user.privileges };
  }

  @Get('moderators')
  @Authenticated('Moderator')
  moderators() {
    return { ok: true };
  }

  @Get('undeclared')
  undeclared() {
    return { leaked: true };
  }
}

@Module({ controllers: [ConventionsTestController] })
export class ConventionsTestModule {}
