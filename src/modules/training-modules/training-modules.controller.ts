import { Body, Controller, Get, Headers, Param, Put, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import {
  CommitRegistrationDto,
  CreateTrainingDraftDto,
  PublishTrainingDto,
  UpdateTrainingDraftDto,
} from './dto/training-body.dto';
import { CurrentModulesQueryDto, ImportsQueryDto, PlayerQueryDto } from './dto/training-query.dto';
import {
  PlayerLaunchDto,
  TrainingImportDto,
  TrainingModuleDto,
  TrainingRegistrationDto,
  TrainingUsageDto,
} from './dto/training-response.dto';
import { TrainingImportsService } from './training-imports.service';
import { TrainingModulesService } from './training-modules.service';
import { TrainingPlayerService } from './training-player.service';

const ModuleId = () => Param('id', new ParseIdPipe('Module'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** External training modules: T1-T7 and the registration commit (docs/enterprise/training-modules.md). */
@ApiTags('Training modules')
@Controller('external_training_modules')
export class TrainingModulesController {
  constructor(
    private readonly modules: TrainingModulesService,
    private readonly imports: TrainingImportsService,
    private readonly player: TrainingPlayerService,
  ) {}

  @Get('current')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({
    summary: 'Modules with a current version',
    description:
      'T1. Any signed-in user (401 without a valid token, as every endpoint of this module). By moduleid ' +
      '(`order`); `search` matches words of the title. `draft` is shown to Admins only (null for others).',
  })
  @ApiOkResponse({ type: [TrainingModuleDto] })
  current(
    @Query() query: CurrentModulesQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto[]> {
    return this.modules.current(query, caller);
  }

  @Post('drafts')
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Create a module, or a new draft of a module',
    description:
      'T2. Without `moduleid`: a new module with an empty draft. With `moduleid`: a new empty draft of that ' +
      'module (409 with the module when it has a draft already). Import a package into the draft (T8-T10), then ' +
      'publish it (T6).',
  })
  @ApiCreatedResponse({ type: TrainingModuleDto })
  @ApiConflictResponse({
    type: TrainingModuleDto,
    description: 'The module has a draft already; the body is the module.',
  })
  createDraft(
    @Body() body: CreateTrainingDraftDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto> {
    return this.modules.createDraft(body, caller);
  }

  @Get(':id/usage')
  @ApiErrors(404)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Where a module is used',
    description:
      'T3. The course stages that use the module and its registrations by status (Admin previews are not counted).',
  })
  @ApiOkResponse({ type: TrainingUsageDto })
  usage(@ModuleId() moduleid: number): Promise<TrainingUsageDto> {
    return this.modules.usage(moduleid);
  }

  @Get(':id/player')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Launch a module',
    description:
      'T4. Creates or reuses the caller’s open registration of the version (default: the current one; 409 with ' +
      'the module when there is none) and answers the signed player URL (valid 4 h), the commit URL and token, ' +
      'and what to resume from. Another version is an Admin preview (403 otherwise) that usage does not count.',
  })
  @ApiOkResponse({ type: PlayerLaunchDto })
  @ApiConflictResponse({
    type: TrainingModuleDto,
    description: 'No current version (or the version has no launchable package); the body is the module.',
  })
  launch(
    @ModuleId() moduleid: number,
    @Query() query: PlayerQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<PlayerLaunchDto> {
    return this.player.launch(moduleid, query.versionid, caller);
  }

  @Get(':id/imports')
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({ summary: 'Imports of a module', description: 'T5. By importid (`order`).' })
  @ApiOkResponse({ type: [TrainingImportDto] })
  importsOf(@ModuleId() moduleid: number, @Query() query: ImportsQueryDto): Promise<TrainingImportDto[]> {
    return this.imports.list(moduleid, query);
  }

  @Put(':id/current')
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Publish the draft, or roll back',
    description:
      'T6. Without `versionid` (or with the draft’s): the draft, which needs a completed package, becomes ' +
      '`current` and the previous current version `superseded`. With a superseded `versionid`: a rollback to it ' +
      '(the draft stays). Publishes `training_module.published`.',
  })
  @ApiOkResponse({ type: TrainingModuleDto })
  @ApiConflictResponse({
    type: TrainingModuleDto,
    description:
      'No draft, the draft has no completed package (or one whose launch file is not content), or versionid is ' +
      'neither the draft nor a superseded version; the body is the module.',
  })
  publish(
    @ModuleId() moduleid: number,
    @Body() body: PublishTrainingDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto> {
    return this.modules.publish(moduleid, body?.versionid, caller);
  }

  @Put(':id/draft')
  @ApiErrors(404, 422)
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Edit the draft’s settings',
    description:
      'T7. At least one of `title`, `description`, `mastery_score` (0-100 or null: the package’s own), ' +
      '`launch_method`. 409 with the module when it has no draft.',
  })
  @ApiOkResponse({ type: TrainingModuleDto })
  @ApiConflictResponse({ type: TrainingModuleDto, description: 'The module has no draft; the body is the module.' })
  updateDraft(
    @ModuleId() moduleid: number,
    @Body() body: UpdateTrainingDraftDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<TrainingModuleDto> {
    return this.modules.updateDraft(moduleid, body, caller);
  }

  @Put('registrations/:registrationid')
  @ApiErrors(401, 403, 404, 422)
  @Public()
  @ApiHeader({
    name: 'X-Registration-Token',
    required: false,
    description: 'The commit_token of T4 (instead of an API token).',
  })
  @ApiOperation({
    summary: 'Commit a registration (player)',
    description:
      'E. Authenticated by `X-Registration-Token: <commit_token>` (the player page holds no API token) or by the ' +
      'owner’s API token; with neither, 401; a wrong or expired token, 403. The status only moves forward (a ' +
      'backward status is ignored, the other fields still apply); completed_date is set once. A commit that ' +
      'moves the status or sets a score records how: `player` (the commit token) or `api` with the userid (the ' +
      'owner’s API token, which may set a result without opening the content). It is kept with the ' +
      'registration and in its audit row, not in this response.',
  })
  @ApiOkResponse({ type: TrainingRegistrationDto })
  @ApiConflictResponse({
    type: TrainingRegistrationDto,
    description: 'The registration kept changing under concurrent commits; the body is the registration.',
  })
  commit(
    @Param('registrationid') registrationid: string,
    @Body() body: CommitRegistrationDto,
    @Headers('x-registration-token') token: string | undefined,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<TrainingRegistrationDto> {
    if (!UUID.test(registrationid)) throw notFound('Registration');
    return this.player.commit(registrationid, body ?? {}, caller, token);
  }
}
