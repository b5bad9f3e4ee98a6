import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Req } from '@nestjs/common';
import { RouteSettings } from '../../common/http/route-settings';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { STREAMABLE_TYPES, type BodyRouteConfig } from '../../common/http/body-parser';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CreateTrainingImportDto, StartImportByUrlDto } from './dto/training-body.dto';
import { ImportPreviewDto, TrainingImportDto } from './dto/training-response.dto';
import { TrainingImportsService } from './training-imports.service';

const ImportId = () => Param('importid', new ParseIdPipe('Import'));

/** Imports of packages into a module's draft: T8-T13 (docs/enterprise/training-modules.md). */
@ApiTags('Training modules')
@Controller('external_training_modules/imports')
export class TrainingImportsController {
  constructor(private readonly imports: TrainingImportsService) {}

  @Post()
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Create an import',
    description:
      'T8. An import into the module’s draft, `created`; start it with T9 or T10. 409 with the module when it ' +
      'has no draft, or with the import still running for the module.',
  })
  @ApiCreatedResponse({ type: TrainingImportDto })
  @ApiConflictResponse({ description: 'No draft (body: the Module), or an import still running (body: that Import).' })
  create(@Body() body: CreateTrainingImportDto, @CurrentUser() caller: AuthenticatedUser): Promise<TrainingImportDto> {
    return this.imports.create(body.moduleid, caller);
  }

  @Post(':importid/start/byUrl')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Import from a URL',
    description:
      'T9. https only (plain http only for hosts in TRAINING_URL_ALLOW), at most 2048 characters. A URL refused ' +
      'from its text (localhost, a literal loopback, private, link-local or metadata address) is 422 at once; an ' +
      'address refused after DNS resolution, at connect time or on a redirect (at most 3) fails the import with ' +
      '`URL_REFUSED`; time-outs, the size cap and a download slower than TRAINING_DOWNLOAD_MIN_RATE (bytes/s, ' +
      'checked over each TRAINING_DOWNLOAD_RATE_WINDOW seconds) fail it with `DOWNLOAD_FAILED`. Poll T12: ' +
      '`bytes_done` counts the bytes as they arrive.',
  })
  @ApiAcceptedResponse({ type: TrainingImportDto })
  @ApiConflictResponse({ description: 'The import is not `created`; the body is the import.' })
  byUrl(@ImportId() importid: number, @Body() body: StartImportByUrlDto): Promise<TrainingImportDto> {
    return this.imports.startByUrl(importid, body.url);
  }

  @Post(':importid/start/byUpload')
  @HttpCode(HttpStatus.ACCEPTED)
  @RouteSettings({ streamBody: STREAMABLE_TYPES } satisfies BodyRouteConfig)
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiConsumes('application/zip', 'multipart/form-data')
  @ApiBody({
    description: 'The package: a raw `application/zip` body, or a multipart form with the field `file`.',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiOperation({
    summary: 'Import an uploaded package',
    description:
      'T10. The body is written to disk as it arrives; the answer (202, `validating`) comes once it is stored, ' +
      'and a job checks and extracts it (poll T12). 401 and 403 come first, whatever the body. Over ' +
      'TRAINING_UPLOAD_LIMIT: 413. Not a ZIP (by type or by its first bytes): 415. A refused body (409, 413, 415, ' +
      'or the import cancelled while it arrives) is not read on: the answer closes the connection.',
  })
  @ApiAcceptedResponse({ type: TrainingImportDto })
  @ApiConflictResponse({
    description: 'The import is not `created` (or was cancelled meanwhile); the body is the import.',
  })
  @ApiPayloadTooLargeResponse({ description: 'The package is larger than TRAINING_UPLOAD_LIMIT.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'The body is not a ZIP archive.' })
  byUpload(@ImportId() importid: number, @Req() request: FastifyRequest): Promise<TrainingImportDto> {
    return this.imports.startByUpload(importid, request);
  }

  @Post(':importid/cancel')
  @HttpCode(HttpStatus.OK)
  @ApiErrors(404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Cancel an import',
    description:
      'T11. Stops it and deletes its partial files. An upload being received stops at once: its request answers ' +
      '409 with the import and its connection closes. Terminal: 409.',
  })
  @ApiOkResponse({ type: TrainingImportDto })
  @ApiConflictResponse({ description: 'The import is terminal; the body is the import.' })
  cancel(@ImportId() importid: number): Promise<TrainingImportDto> {
    return this.imports.cancel(importid);
  }

  @Get(':importid/progress')
  @ApiErrors(404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Progress of an import',
    description:
      'T12. Status, progress (receiving 0-60 %, validating 60-70, extracting 70-100), warnings, error. An ' +
      'import whose instance stopped while working on it fails with `INTERRUPTED`: when that instance starts ' +
      'again on the same host, at once; otherwise once it has been silent for 2 minutes (checked every minute and ' +
      'at start-up). Imports that another running instance works on are left alone.',
  })
  @ApiOkResponse({ type: TrainingImportDto })
  progress(@ImportId() importid: number): Promise<TrainingImportDto> {
    return this.imports.one(importid);
  }

  @Get(':importid/preview')
  @ApiErrors(404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Preview an imported package',
    description: 'T13. The manifest, the files and a preview launch URL of the draft. Not `complete`: 409.',
  })
  @ApiOkResponse({ type: ImportPreviewDto })
  @ApiConflictResponse({ description: 'The import is not complete; the body is the import.' })
  preview(@ImportId() importid: number, @CurrentUser() caller: AuthenticatedUser): Promise<ImportPreviewDto> {
    return this.imports.preview(importid, caller);
  }
}
