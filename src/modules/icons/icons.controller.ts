import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth-rule.decorators';
import { GUIDE_FLAGS } from '../../common/flags/guide-flags';
import { iconSvg } from '../../common/flags/icon-svg';
import { notFound } from '../../common/http/api-errors';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { BADGES } from '../reputation/badge-rules';
import { ApiErrors } from '../../common/openapi/api-error-responses';

const BADGE_COLORS = { bronze: '#cd7f32', silver: '#a8a8a8', gold: '#d4af37' } as const;
const CACHE = 'public, max-age=86400';

/** The small SVG images that flag, badge and default-avatar URLs point to. */
@ApiTags('Icons')
@Controller('icons')
export class IconsController {
  @Get('flags/:flagid')
  @ApiErrors(404)
  @Public()
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', CACHE)
  @ApiProduces('image/svg+xml')
  @ApiOperation({
    summary: 'Image of a guide flag',
    description: 'An SVG icon for a guide flag id (as listed by GET /user/flags); unknown id: 404.',
  })
  @ApiOkResponse({ description: 'An SVG image.' })
  flag(@Param('flagid') flagid: string): string {
    const flag = GUIDE_FLAGS.find((f) => f.flagid === flagid);
    if (!flag) throw notFound('Flag');
    return iconSvg(flag.title[0], flag.color);
  }

  @Get('badges/:badgeid')
  @ApiErrors(404)
  @Public()
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', CACHE)
  @ApiProduces('image/svg+xml')
  @ApiOperation({
    summary: 'Image of a badge',
    description: 'An SVG icon for a badge id (as in GET /user/badges); unknown id: 404.',
  })
  @ApiOkResponse({ description: 'An SVG image.' })
  badge(@Param('badgeid', new ParseIdPipe('Badge')) badgeid: number): string {
    const badge = BADGES.find((b) => b.badgeid === badgeid);
    if (!badge) throw notFound('Badge');
    return iconSvg(badge.name[0], BADGE_COLORS[badge.type]);
  }

  @Get('avatar')
  @ApiErrors(400)
  @Public()
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', CACHE)
  @ApiProduces('image/svg+xml')
  @ApiOperation({
    summary: 'The default avatar',
    description: 'The SVG image shown for users without an avatar of their own.',
  })
  @ApiOkResponse({ description: 'An SVG image.' })
  avatar(): string {
    return iconSvg('?', '#9e9e9e');
  }
}
