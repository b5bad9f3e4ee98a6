import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth-rule.decorators';
import { TagsQueryDto } from './dto/tags-query.dto';
import { TagsService } from './tags.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'List tags',
    description:
      'Every tag ever added to a guide or wiki, as a flat array of names in creation (tag id) order; ' +
      '`order` sets the direction. A tag is created the first time it is added; names are trimmed, at most 32 ' +
      'characters, case-preserving (the first spelling is kept) and matched case-insensitively.',
  })
  @ApiOkResponse({ type: String, isArray: true })
  list(@Query() query: TagsQueryDto): Promise<string[]> {
    return this.tags.list(query.offset, query.limit, query.order);
  }
}
