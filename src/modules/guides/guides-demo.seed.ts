import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { MediaService } from '../media/media.service';
import type { StepFormInputDto } from '../step-forms/dto/step-form.dto';
import { TagsService } from '../tags/tags.service';
import { TeamsService } from '../teams/teams.service';
import { UsersService } from '../users/users.service';
import type { CreateGuideDto } from './dto/guide-body.dto';
import { GuideStepsService } from './guide-steps.service';
import { GuideWriterService } from './guide-writer.service';

/** Under this key the step whose form asks for a sign-off is shared with later demo steps (the work log's). */
export const DEMO_SIGNOFF_STEP = 'demo.signoffStep';
export interface DemoSignoffStep {
  guideid: number;
  stepid: number;
}

/** A demo step form; `signoff` asks the first team for a sign-off (docs/enterprise/work-log.md). */
type DemoForm = { fields: StepFormInputDto['fields']; signoff?: boolean };
type DemoStep = [title: string, lines: [text: string, bullet?: string, level?: number][], form?: DemoForm];

interface DemoGuide {
  body: CreateGuideDto;
  steps: DemoStep[];
  tags: string[];
  prerequisiteOf?: boolean;
}

const GUIDES: DemoGuide[] = [
  {
    body: {
      category: 'iPhone 6',
      type: 'disassembly',
      subject: 'Display',
      title: 'iPhone 6 Display Removal',
      summary: 'Open the iPhone 6 and lift the display assembly.',
      introduction: 'Most iPhone 6 repairs start by removing the display.',
      difficulty: 'Moderate',
      time_required_min: 900,
      time_required_max: 1800,
      public: true,
      tools: [{ name: 'Pentalobe P2 Screwdriver' }, { name: 'Suction Handle' }, { name: 'Spudger' }],
    },
    steps: [
      [
        'Pentalobe screws',
        [
          ['Power off the phone.', 'black'],
          ['Remove the two 3.6 mm pentalobe screws next to the Lightning port.', 'red'],
        ],
      ],
      [
        'Lift the display',
        [
          ['Apply the suction handle above the home button.', 'black'],
          ['Pull up gently to open a gap.', 'black', 1],
          ["Don't pull too hard: the display cables are still attached.", 'icon_caution'],
        ],
      ],
    ],
    tags: ['iPhone', 'display'],
    prerequisiteOf: true,
  },
  {
    body: {
      category: 'iPhone 6',
      type: 'replacement',
      subject: 'Battery',
      summary: 'Replace a worn-out iPhone 6 battery.',
      introduction: "Use this guide to bring your iPhone 6's battery life back.",
      conclusion: 'Reassemble in reverse order. Calibrate the new battery by running it down once.',
      difficulty: 'Moderate',
      time_required_min: 1800,
      time_required_max: 3600,
      flags: ['DANGER'],
      public: true,
      parts: [{ name: 'iPhone 6 Battery', quantity: 1, summary: 'Replacement 1810 mAh battery.' }],
      tools: [{ name: 'Spudger' }, { name: 'Tweezers' }],
    },
    steps: [
      [
        'Disconnect the battery',
        [
          ['Remove the battery connector bracket screws.', 'black'],
          ['Pry the battery connector up with the spudger.', 'black'],
        ],
      ],
      [
        'Remove the adhesive strips',
        [
          ['Peel back the first adhesive tab.', 'black'],
          ['Pull slowly at a low angle.', 'black', 1],
          ['A punctured battery can catch fire.', 'icon_caution'],
        ],
      ],
      ['Remove the battery', [['Lift the battery out of the rear case.', 'black']]],
    ],
    tags: ['battery', 'iPhone'],
  },
  {
    body: {
      category: 'MacBook Pro 13 Retina',
      type: 'replacement',
      subject: 'SSD',
      summary: 'Swap the SSD of a 13" MacBook Pro Retina.',
      difficulty: 'Easy',
      time_required_max: 1200,
      public: true,
      tools: [{ name: 'Phillips 000 Screwdriver' }],
    },
    steps: [
      ['Lower case', [['Remove the ten lower case screws.', 'black']]],
      [
        'SSD',
        [
          ['Remove the single T5 screw holding the SSD.', 'black'],
          ['Slide the SSD out of its socket.', 'black'],
        ],
      ],
    ],
    tags: ['SSD', 'upgrade'],
  },
  {
    body: {
      category: 'Washing Machine',
      type: 'repair',
      subject: 'Drain Pump',
      summary: 'Clear or replace a blocked drain pump.',
      difficulty: 'Easy',
      time_required_max: 2700,
      public: true,
    },
    steps: [
      [
        'Unplug and drain',
        [
          ['Unplug the machine and turn off the water.', 'red'],
          ['Drain the remaining water through the service hose.', 'black'],
        ],
      ],
      [
        'Clean the filter',
        [['Unscrew the pump filter and remove lint and coins.', 'black']],
        {
          signoff: true,
          fields: [
            { label: 'Filter condition', field_type: 'Radios', options: ['clean', 'worn', 'replaced'], required: true },
            { label: 'Residual water', field_type: 'Numeric Input', unit: 'ml', min: 0, max: 5000, required: true },
            { label: 'Pump runs freely', field_type: 'Checkbox', required: true },
            { label: 'Remarks', field_type: 'Text Area' },
          ],
        },
      ],
    ],
    tags: ['appliance'],
  },
  {
    body: {
      category: 'Samsung Galaxy S5',
      type: 'teardown',
      summary: 'A look inside the Galaxy S5 (work in progress).',
      introduction: 'Still being written.',
    },
    steps: [['Back cover', [['Pop off the back cover from the notch.', 'black']]]],
    tags: ['teardown'],
  },
];

/** Demo guides (order 40): complete guides with steps, images, parts, tools and tags; one private; one with a prerequisite. */
@Injectable()
export class GuidesDemoSeed {
  constructor(
    private readonly users: UsersService,
    private readonly writer: GuideWriterService,
    private readonly steps: GuideStepsService,
    private readonly media: MediaService,
    private readonly tags: TagsService,
    private readonly teams: TeamsService,
    private readonly seeds: DemoSeedRegistry,
  ) {}

  @DemoSeed({ name: 'guides', order: 40 })
  async run(): Promise<void> {
    const admin = await this.demoAdmin();
    if (!admin) return;
    const images = await this.media.imageIdsOf(admin.userid, 10).catch(() => [] as number[]);
    let prerequisite: number | undefined;
    let imageIndex = 0;
    const nextImage = () => (images.length ? images[imageIndex++ % images.length] : undefined);
    for (const demo of GUIDES) {
      const image = nextImage();
      const created = (
        await this.writer.create(
          {
            ...demo.body,
            ...(image ? { image } : {}),
            ...(prerequisite && demo.body.subject === 'Battery' ? { prerequisites: [prerequisite] } : {}),
          },
          admin,
        )
      ).value();
      for (const [title, lines, form] of demo.steps) {
        const stepImage = nextImage();
        const team = form?.signoff ? await this.teams.firstTeam() : undefined;
        const guide = await this.steps.create(
          created.guideid,
          {
            title,
            lines: lines.map(([text, bullet = 'black', level = 0]) => ({ text, bullet, level })),
            ...(stepImage ? { media: { type: 'image', data: [stepImage] } } : {}),
            ...(form ? { form: { fields: form.fields, signoff_teamid: team?.teamid ?? null } } : {}),
          },
          undefined,
          admin,
        );
        if (team) {
          const { steps } = guide.value();
          const step = steps[steps.length - 1];
          this.seeds.share<DemoSignoffStep>(DEMO_SIGNOFF_STEP, { guideid: created.guideid, stepid: step.stepid });
        }
      }
      for (const tag of demo.tags) await this.tags.add('guide', created.guideid, tag);
      if (demo.prerequisiteOf) prerequisite = created.guideid;
    }
  }

  private demoAdmin(): Promise<AuthenticatedUser | undefined> {
    return this.users.firstAdmin();
  }
}
