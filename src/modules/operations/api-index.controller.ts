import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth-rule.decorators';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiIndexDto } from './api-index.dto';
import { packageVersion } from './package-version';

/** GET /api/2.0: what this is and where to go next. */
@ApiTags('Operations')
@Controller()
export class ApiIndexController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'The API index: version and links to the docs, the OpenAPI document and health',
    description:
      'Where to start: the API version and the URLs of this page, the OpenAPI document and the health check.',
  })
  @ApiOkResponse({ type: ApiIndexDto })
  index(): ApiIndexDto {
    const base = this.config.publicUrl;
    return {
      name: 'Repair Guide Content Service',
      version: packageVersion(),
      api: '2.0',
      links: {
        docs: `${base}/api/2.0/docs`,
        openapi: `${base}/api/2.0/openapi.json`,
        health: `${base}/health`,
        guides: `${base}/api/2.0/guides`,
        wikis: `${base}/api/2.0/wikis/CATEGORY`,
        login: `${base}/api/2.0/user/token`,
      },
    };
  }
}
