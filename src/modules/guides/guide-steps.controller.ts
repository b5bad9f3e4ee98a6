import { JsonText } from '../../common/http/json-text';
import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { RevisionId, Versioned } from '../../common/revisions/versioned.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CreateStepDto, StepLinesDto, StepOrderDto, UpdateStepDto } from './dto/step-body.dto';
import { GuideDetailDto, LinesPreviewDto, StepDto } from './dto/guide-response.dto';
import { GuideStepsService } from './guide-steps.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideId } from './guide-id.param';

const StepId = () => Param('stepid', new ParseIdPipe('Step'));

@ApiTags('Guide steps')
@Controller('guides')
export class GuideStepsController {
  constructor(private readonly steps: GuideStepsService) {}

  @Post('steps/lines/preview')
  @ApiErrors(422)
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Render step lines without saving',
    description: 'Same line rules as a step (1–8 lines, text up to 350 characters, levels, bullets).',
  })
  @ApiOkResponse({ type: LinesPreviewDto })
  preview(@Body() body: StepLinesDto): Promise<LinesPreviewDto> {
    return this.steps.preview(body.lines);
  }

  @Post(':guideid/steps')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned({ required: false })
  @ApiOperation({
    summary: 'Add a step',
    description:
      'Lines: 1–8, text 1–350 characters, level 0–2 (the first 0, each at most one deeper than the one before), ' +
      'bullets as in StepLine. `media` {type: image, data: up to 3 image ids in the caller’s media manager}. ' +
      '`orderby` 1..count+1, default last. The guide’s revisionid is checked when given. 201 with the guide.',
  })
  @ApiCreatedResponse({ type: GuideDetailDto })
  create(
    @GuideId() guideid: number,
    @Body() body: CreateStepDto,
    @RevisionId() revisionid: number | undefined,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.steps.create(guideid, body, revisionid, caller);
  }

  @Patch(':guideid/steps/:stepid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Edit a step',
    description:
      'The step must be one of this guide’s own steps (404 otherwise, also for prerequisite steps). `revisionid` is the ' +
      'step’s own; a stale one answers 409 with the current step. Answers the step. With a `langid` other than the ' +
      'guide’s source language the step’s translation is edited: only `title` and the lines’ text change (send the ' +
      'source lines with the same count, bullets and levels, else 422; `media` is 422), `revisionid` is the step’s ' +
      'revisionid as read in that language (it changes when the step or its translation changes), and the answer ' +
      'is the step in that language.',
  })
  @ApiOkResponse({ type: StepDto })
  update(
    @GuideId() guideid: number,
    @StepId() stepid: number,
    @Body() body: UpdateStepDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<StepDto> {
    return this.steps.update(guideid, stepid, body, revisionid, caller);
  }

  @Delete(':guideid/steps/:stepid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({ summary: 'Delete a step', description: 'With the step’s revisionid. Answers the guide.' })
  @ApiOkResponse({ type: GuideDetailDto })
  remove(
    @GuideId() guideid: number,
    @StepId() stepid: number,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.steps.remove(guideid, stepid, revisionid, caller);
  }

  @Put(':guideid/steporder')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Reorder steps',
    description: '`stepids` must be a permutation of the guide’s step ids (422 otherwise). Answers the guide.',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  reorder(
    @GuideId() guideid: number,
    @Body() body: StepOrderDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.steps.reorder(guideid, body, revisionid, caller);
  }
}
